#!/usr/bin/env bash
# On the GPU host (after install-cuda.sh), from bundle/: the agent pipeline of one environment
# (`diffworld grpo train`, the bundled CLI and presets) in $RUN, stopped at the call's deadline
# (DEADLINE seconds, default 540) and continued by the next call (every stage resumes). Afterwards
# the report, the stages' results, the evaluations and metrics.jsonl are copied to $OUT.
# Usage: RUN=/tmp/agent OUT=$OUT ENV=alfworld bundle/run-agent.sh --config gpu --set 'grpo.arms=["real"]' …
set -uo pipefail
cd "$(dirname "$0")"
. ./cuda-env.sh
run=${RUN:-/tmp/agent}
out=${OUT:-/tmp/out}
mkdir -p "$run" "$out"
timeout "${DEADLINE:-540}" ./node cli.mjs grpo train --env "${ENV:-alfworld}" --out "$run" "$@" 2>&1 | grep -v '^\s*$' | tail -n 40
code=${PIPESTATUS[0]}
# What comes back: small files only (no weights): the report, each stage's result, the evaluations.
for f in report.md report.html metrics.jsonl config.json; do cp "$run/$f" "$out/" 2>/dev/null; done
for d in "$run"/stages/*/; do
  n=$(basename "$d")
  [ -f "$d/result.json" ] && cp "$d/result.json" "$out/$n.result.json"
  # The merged evaluation (episodes with their conversations), not its stored chunks.
  case "$n" in eval-*) for e in "$d"/*.json; do case "$(basename "$e")" in result.json | *.part-*) ;; *) cp "$e" "$out/$n.$(basename "$e")" ;; esac; done ;; esac
done
echo "run-agent.sh: grpo train exited $code (124: cut at the deadline; the next call continues)"
exit 0
