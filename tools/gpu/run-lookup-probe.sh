#!/usr/bin/env bash
# On the GPU host (after install-cuda.sh), from bundle/: issue 31's lookup probe at full size. Does
# the scene's layout stop a world model from reading a receptacle's contents off the system prompt?
# wm-lookup-probe.py keeps the listing transitions (`go to R` / `open R`) whose answer the scene's
# INITIAL OBJECT LOCATIONS tells, and writes them in the paper's layout (`- bread 2: on countertop 1`,
# key after value) and keyed by receptacle (`- countertop 1 (on): bread 2, …`); the same AR model
# (CONFIG, default fidelity-wm.json, 12×768) is trained on each for STEPS steps of rows of SEQ tokens
# and scored greedily on held-out transitions of unseen games. Each stage is skipped once its output
# exists, a killed training resumes. Results (eval summaries, outputs, metrics) go to $OUT.
# Usage: STEPS=600 DEADLINE=540 bundle/run-lookup-probe.sh
set -uo pipefail
cd "$(dirname "$0")"
[ -f ./cuda-env.sh ] && . ./cuda-env.sh
w=${WORK:-/tmp/lookup}
out=${OUT:-/tmp/out}
mkdir -p "$w" "$out"
end=$((SECONDS + ${DEADLINE:-540}))
left() { echo $((end - SECONDS)); }
. ./wm-stages.sh
cli() { ${NODE:-./node} cli.mjs "$@"; }
[ -f "$w/steps-train.jsonl" ] || cli env corpus alfworld --split train --episodes ${EPISODES:-4000} --seed 1 --fresh-games --per-step --out "$w/steps-train.jsonl" || exit 1
[ -f "$w/steps-heldout.jsonl" ] || cli env corpus alfworld --split eval_out_of_distribution --episodes ${HELDOUT_EPISODES:-120} --seed 3 --per-step --out "$w/steps-heldout.jsonl" || exit 1
[ -f "$w/train-keyed.jsonl" ] || python3 wm-lookup-probe.py "$w/steps-train.jsonl" "$w/train-paper.jsonl" "$w/train-keyed.jsonl" || exit 1
[ -f "$w/heldout-keyed.jsonl" ] || python3 wm-lookup-probe.py "$w/steps-heldout.jsonl" "$w/heldout-paper.jsonl" "$w/heldout-keyed.jsonl" || exit 1
# One tokenizer for both layouts (trained on the paper-layout rows), so only the layout differs.
[ -f "$w/tokenizer.json" ] || cli tokenizer train --data "$w/train-paper.jsonl" --vocab-size ${VOCAB:-1024} --out "$w/tokenizer.json" || exit 1
for layout in ${LAYOUTS:-paper keyed}; do
  d="$w/ar-$layout"
  wm_train "$d" ${STEPS:-600} --config "${CONFIG:-fidelity-wm.json}" --objective ar --seq-length ${SEQ:-1024} --data "$w/train-$layout.jsonl" \
    --tokenizer "$w/tokenizer.json" ${PRECISION:+--precision $PRECISION} --eval-every 0 ${TRAIN_ARGS:-} || exit 0
  wm_score "$d/model" "$w/heldout-$layout.jsonl" "$w/eval-$layout"
  cp "$w/eval-$layout/eval_summary.json" "$out/lookup-eval-$layout.json" 2>/dev/null
  cp "$w/eval-$layout/heldout_outputs.jsonl" "$out/lookup-outputs-$layout.jsonl" 2>/dev/null
done
exit 0
