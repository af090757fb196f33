#!/usr/bin/env bash
# Builds bundle/ for an offline GPU host (shared/GPU.md): the node binary, onnxruntime-node's
# JS + linux-x64 binaries, the Vulkan/GL loader .debs WebGPU needs there, and esbuild bundles of
# the benchmarks. bundle/ is git-ignored; ship it with the device tool's `carry: ["bundle"]`.
# Usage: tools/gpu/bundle.sh    then on the host: bash bundle/setup.sh && bundle/run-bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=bundle
rm -rf "$out" && mkdir -p "$out/node_modules" "$out/debs"

echo "bundling benchmarks"
npx esbuild packages/mdlm-core/src/bench/train-step.bench.ts --bundle --platform=node --format=esm \
  --target=node20 --conditions=@diffworld/source --external:onnxruntime-node --external:koffi --outfile="$out/train-step.bench.mjs" --log-level=warning \
  "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);" # CJS deps (piscina) require node builtins

npx esbuild packages/mdlm-core/src/bench/gpu-train.bench.ts --bundle --platform=node --format=esm \
  --target=node20 --conditions=@diffworld/source --external:onnxruntime-node --external:koffi --outfile="$out/gpu-train.bench.mjs" --log-level=warning \
  "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);"
cp tools/gpu/torch_train_step.py "$out/"
# decode.bench: trained checkpoints against transformers; resident-decode.bench: the resident
# decoder's variants (half precision, CUDA-graph steps) on random weights, no checkpoint needed.
for f in decode.bench resident-decode.bench; do
  npx esbuild "packages/mdlm-core/src/bench/$f.ts" --bundle --platform=node --format=esm \
    --target=node20 --conditions=@diffworld/source --external:onnxruntime-node --external:koffi --outfile="$out/$f.mjs" --log-level=warning \
    "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);"
done
# wm-server's load bench and its client (forked as ./load-client.mjs beside it): wm serve under load on CUDA.
for f in load.bench load-client; do
  npx esbuild "apps/wm-server/src/bench/$f.ts" --bundle --platform=node --format=esm \
    --target=node20 --conditions=@diffworld/source --external:onnxruntime-node --external:koffi --outfile="$out/$f.mjs" --log-level=warning \
    "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);"
done
# grpo's SFT diagnostics (teacher-forced accuracy per verb, greedy rollouts) on the config's provider:
#   bundle/node bundle/sft-diagnose.bench.mjs bundle/configs/gpu.json <tokenizer.json> --policy <run>/stages/sft-*/policy
npx esbuild packages/grpo/src/bench/sft-diagnose.bench.ts --bundle --platform=node --format=esm --target=node20 --conditions=@diffworld/source \
  --external:onnxruntime-node --external:koffi --external:better-sqlite3 --external:piscina --external:@sparticuz/chromium --external:playwright-core --external:puppeteer-core \
  --outfile="$out/sft-diagnose.bench.mjs" --log-level=error \
  "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);"
cp tools/gpu/hf_generate.py tools/gpu/decode-wm.json tools/gpu/fidelity-wm.json tools/gpu/run-wm-fidelity.sh tools/gpu/run-agent.sh tools/gpu/run-lookup-probe.sh tools/gpu/wm-stages.sh tools/gpu/cuda-env.sh tools/wm-lookup-probe.py "$out/"
# The CLI, to run `wm train` etc. there; better-sqlite3 (AppWorld's engine) is native: ship its build.
# piscina stays external here too: bundled, it looks for its worker.js beside cli.mjs through __dirname,
# which an ES module lacks ("__dirname is not defined" as the env pool opened, on the H200, 3 Dec).
printf "import { main } from '../apps/cli/src/main.ts';\nprocess.exitCode = await main(process.argv.slice(2));\n" > "$out/cli-entry.ts"
npx esbuild "$out/cli-entry.ts" --bundle --platform=node --format=esm --target=node20 --conditions=@diffworld/source \
  --external:onnxruntime-node --external:koffi --external:better-sqlite3 --external:piscina --external:@sparticuz/chromium --external:playwright-core --external:puppeteer-core \
  --outfile="$out/cli.mjs" --log-level=error \
  "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);"
rm "$out/cli-entry.ts"
# The experiments' env-pool worker beside the CLI bundle (EnvPool starts ./env-worker.mjs); piscina stays
# external (it starts its own worker.js from its package directory), so its package is shipped. The
# presets go beside the bundle too: `grpo train --config gpu` finds bundle/configs/gpu.json.
printf "export { serveShard as default } from '../apps/experiments/src/env-worker-task.ts';\n" > "$out/env-worker-entry.ts"
npx esbuild "$out/env-worker-entry.ts" --bundle --platform=node --format=esm --target=node20 --conditions=@diffworld/source \
  --external:onnxruntime-node --external:koffi --external:better-sqlite3 --external:piscina --external:@sparticuz/chromium --external:playwright-core --external:puppeteer-core \
  --outfile="$out/env-worker.mjs" --log-level=error \
  "--banner:js=import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);"
rm "$out/env-worker-entry.ts"
cp -r apps/experiments/configs "$out/configs"
# -L: a node_modules of symlinks (a git worktree sharing one install) must ship as files; the device
# tool drops links, and onnxruntime-node without onnxruntime-common fails at import there.
cp -rL node_modules/piscina "$out/node_modules/"
bsq=node_modules/better-sqlite3
mkdir -p "$out/$bsq/build/Release"
cp -rL "$bsq/lib" "$bsq/package.json" "$bsq/LICENSE" "$out/$bsq/"
cp "$bsq/build/Release/better_sqlite3.node" "$out/$bsq/build/Release/"
cp -rL node_modules/bindings node_modules/file-uri-to-path "$out/node_modules/"
# koffi (the IO-bound CUDA step's FFI to ORT's C API) is native: ship it with its linux-x64 build.
mkdir -p "$out/node_modules/@koromix"
cp -rL node_modules/koffi "$out/node_modules/"
cp -rL node_modules/@koromix/koffi-linux-x64 "$out/node_modules/@koromix/"

echo "packing node $(node --version) and onnxruntime-node"
xz -T2 -6 -c "$(readlink -f "$(command -v node)")" > "$out/node.xz"
ort=node_modules/onnxruntime-node
mkdir -p "$out/$ort/bin/napi-v6/linux"
cp -rL "$ort/package.json" "$ort/dist" "$ort/lib" "$out/$ort/"
tar -C "$ort/bin/napi-v6/linux" -cJf "$out/ort-linux-x64.tar.xz" x64
cp -rL node_modules/onnxruntime-common "$out/node_modules/"

echo "downloading the Vulkan/GL loader packages"
(cd "$out/debs" && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1)

cat > "$out/setup.sh" <<'SH'
#!/usr/bin/env bash
# On the GPU host: unpack node and ORT, install the Vulkan loader, point it at the NVIDIA ICD.
set -euo pipefail
cd "$(dirname "$0")"
[ -x node ] || xz -dc node.xz > node && chmod +x node
mkdir -p node_modules/onnxruntime-node/bin/napi-v6/linux
[ -d node_modules/onnxruntime-node/bin/napi-v6/linux/x64 ] || tar -C node_modules/onnxruntime-node/bin/napi-v6/linux -xJf ort-linux-x64.tar.xz
for f in debs/*.deb; do dpkg -x "$f" /; done
ldconfig
SH
cat > "$out/run-bench.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json} XDG_RUNTIME_DIR=/tmp
./node train-step.bench.mjs "$@"
SH
cat > "$out/install-cuda.sh" <<'SH'
#!/usr/bin/env bash
# On the GPU host: joins the CUDA provider's tarball parts gathered in /tmp/cuda-parts (tools/gpu/cuda-parts.sh
# cut them; each device call ships one) and installs the provider next to libonnxruntime.so.1.
set -euo pipefail
cd "$(dirname "$0")"
dir=node_modules/onnxruntime-node/bin/napi-v6/linux/x64
tmp=$(mktemp -d)
cat /tmp/cuda-parts/part-* | tar -xz -C "$tmp"
for f in libonnxruntime_providers_cuda.so libonnxruntime_providers_shared.so; do mv "$tmp/package/Plugins/Linux/x64/$f" "$dir/"; done
rm -rf "$tmp"
ls -la "$dir"
SH
cat > "$out/run-gpu-train.sh" <<'SH'
#!/usr/bin/env bash
# On the GPU host: the training-step benchmark (CUDA paths need install-cuda.sh first).
set -euo pipefail
cd "$(dirname "$0")"
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json} XDG_RUNTIME_DIR=/tmp
. ./cuda-env.sh
./node gpu-train.bench.mjs "$@"
SH
cat > "$out/run-repro.sh" <<'SH'
#!/usr/bin/env bash
# On the GPU host: `diffworld repro <env>` for every env named, side by side (one GPU, the cores
# shared through DIFFWORLD_ORT_THREADS), each detached so it outlives the device call that started
# it. Call it again with the same arguments: runs that finished or still run are left alone, the
# others continue from their stored stages. Waits up to WAIT seconds (default 540), then copies
# each run's log, report and results to $OUT/<env>/.
# Usage: WAIT=540 bundle/run-repro.sh /abs/path/config.json alfworld sciworld appworld
set -uo pipefail
config=$1
shift
cd "$(dirname "$0")"
runs=${RUNS:-/tmp/repro}
. ./cuda-env.sh
export DIFFWORLD_ORT_THREADS=${DIFFWORLD_ORT_THREADS:-$(( $(nproc) / $# ))}
alive() { [ -f "$runs/$1/pid" ] && kill -0 "$(cat "$runs/$1/pid")" 2>/dev/null; }
for env in "$@"; do
  mkdir -p "$runs/$env"
  if [ -f "$runs/$env/out/report.md" ]; then echo "$env: done"; continue; fi
  if alive "$env"; then echo "$env: running"; continue; fi
  echo "$env: starting (threads $DIFFWORLD_ORT_THREADS)"
  setsid nohup ./node cli.mjs repro "$env" --config "$config" --out "$runs/$env/out" >>"$runs/$env/log" 2>&1 </dev/null &
  echo $! >"$runs/$env/pid"
done
# Copied every 20 s, so a call stopped at its time limit still brings back the latest state.
collect() {
  [ -n "${OUT:-}" ] || return 0
  nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader >>"$OUT/gpu.csv" 2>/dev/null
  for env in "$@"; do
    mkdir -p "$OUT/$env"
    cp "$runs/$env/log" "$OUT/$env/" 2>/dev/null
    for f in report.md report.html results.json; do [ -f "$runs/$env/out/$f" ] && cp "$runs/$env/out/$f" "$OUT/$env/"; done
  done
}
end=$((SECONDS + ${WAIT:-540}))
while [ $SECONDS -lt $end ]; do
  any=0
  for env in "$@"; do alive "$env" && any=1; done
  collect "$@"
  [ $any = 0 ] && break
  sleep 20
done
collect "$@"
for env in "$@"; do
  echo "== $env $(alive "$env" && echo running || echo stopped)"
  tail -n 4 "$runs/$env/log"
done
exit 0
SH
chmod +x "$out/run-repro.sh" "$out/setup.sh" "$out/run-bench.sh" "$out/install-cuda.sh" "$out/run-gpu-train.sh"
du -sh "$out"
