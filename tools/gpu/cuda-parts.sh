#!/usr/bin/env bash
# Cuts the CUDA execution provider's npm tarball (the package tools/install-cuda-provider.mjs uses,
# 179 MB gzip) into parts that fit one device call each (shared/GPU.md): gpu-parts/1 … N, each one
# part-NN. The first part is small so it fits beside bundle/ in the first call. On the host,
# bundle/install-cuda.sh gathers them from /tmp/cuda-parts, joins and unpacks them.
# (xz -9 saves only ~8% on this library and takes many minutes on a 2-core machine.) A call carries
# 64 MiB with the working tree (~11.5 MiB): parts of 48 MiB leave room for it; ship bundle/node.xz
# (24 MiB) beside a small part or alone, not beside a 48 MiB one.
# Usage: tools/gpu/cuda-parts.sh [FIRST_MB] [PART_MB]
set -euo pipefail
cd "$(dirname "$0")/../.."
first=${1:-10}
size=${2:-48}
pkg=com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9
work=$(mktemp -d)
(cd "$work" && npm pack "$pkg" >/dev/null 2>&1)
tgz=$(ls "$work"/*.tgz)
rm -rf gpu-parts && mkdir -p gpu-parts/1
head -c "$((first * 1024 * 1024))" "$tgz" > gpu-parts/1/part-00
tail -c +"$((first * 1024 * 1024 + 1))" "$tgz" | split -b "${size}M" -d -a 2 --numeric-suffixes=1 - "$work/part-"
i=1
for f in "$work"/part-*; do
  i=$((i + 1)); mkdir -p "gpu-parts/$i"; mv "$f" "gpu-parts/$i/"
done
rm -rf "$work"
du -sh gpu-parts/*
