#!/usr/bin/env bash
# On the GPU host (after install-cuda.sh), from bundle/: issue 31's fidelity run (ALFWorld unless ENV says) —
# an AR world model trained on episode-layout rows (every observation a target), BD3 adapted from
# it, both scored greedily by `eval wm` (the world model alone: no local responder) on held-out
# transitions of unseen games (eval_out_of_distribution, one row per step), then the decoding
# benchmark on those models against transformers (once BD3 is done). Each stage is skipped once its output exists and
# a killed training resumes, so calls of ≤ 10 minutes continue where the last stopped; training
# stops at its step count or at the call's deadline (DEADLINE seconds from the start, default 540).
# Results go to $OUT. CONFIG names the model (default fidelity-wm.json, 12×768; decode-wm.json is
# the 8×512 model of issue 29's first table); SKIP_DECODE=1 leaves the decoding benchmark out.
# DECODERS names the decoding benchmark's decoders (decode.bench --decoders; default: the float32
# resident decoder, its float16/bfloat16 and CUDA-graph variants, and the host decoder at batch 1 —
# each variant's answers compared with the float32 resident decoder's and with transformers').
# SERVE_BENCH=1 adds wm serve's load bench on the AR model. SCRATCH_STEPS adds BD3 from scratch after the adapted one. Each eval's outputs come back as outputs-<name>.jsonl.
# Usage: AR_STEPS=1500 BD3_STEPS=400 bundle/run-wm-fidelity.sh
set -uo pipefail
cd "$(dirname "$0")"
. ./cuda-env.sh
w=${WORK:-/tmp/fidelity}
out=${OUT:-/tmp/out}
mkdir -p "$w" "$out"
end=$((SECONDS + ${DEADLINE:-540}))
left() { echo $((end - SECONDS)); }
cli() { ./node cli.mjs "$@"; }
# FRESH=1: episodes past the train split's 3,553 tasks play newly generated games (env corpus --fresh-games).
fresh=(); [ -n "${FRESH:-}" ] && fresh=(--fresh-games)
# ENV=sciworld|appworld runs the same comparison there: train on the train split, validate on dev,
# score on the held-out test split (SciWorld: test variations; AppWorld: test_normal tasks).
env=${ENV:-alfworld}
case "$env" in
  alfworld) valid_split=eval_in_distribution heldout_split=eval_out_of_distribution ;;
  sciworld) valid_split=dev heldout_split=test ;;
  appworld) valid_split=dev heldout_split=test_normal ;;
  *) echo "run-wm-fidelity.sh: ENV must be alfworld, sciworld or appworld, not '$env'" >&2; exit 2 ;;
esac
[ -f "$w/train.jsonl" ] || cli env corpus "$env" --split train --episodes ${EPISODES:-3000} --seed 1 "${fresh[@]}" --out "$w/train.jsonl" || exit 1
[ -f "$w/valid.jsonl" ] || cli env corpus "$env" --split "$valid_split" --episodes 30 --seed 2 --out "$w/valid.jsonl" || exit 1
[ -f "$w/heldout.jsonl" ] || cli env corpus "$env" --split "$heldout_split" --episodes 50 --seed 3 --per-step --out "$w/heldout.jsonl" || exit 1
[ -f "$w/tokenizer.json" ] || cli tokenizer train --data "$w/train.jsonl" --vocab-size 4096 --out "$w/tokenizer.json" || exit 1
. ./wm-stages.sh
train() { # objective dir steps extra...
  local o=$1 dir=$2 steps=$3
  shift 3
  wm_train "$dir" "$steps" --config "${CONFIG:-fidelity-wm.json}" --objective "$o" --data "$w/train.jsonl" --eval-data "$w/valid.jsonl" --precision bfloat16 "$@"
}
score() { # dir name
  wm_score "$1/model" "$w/heldout.jsonl" "$w/eval-$2"
  cp "$w/eval-$2/eval_summary.json" "$out/eval-$2.json" 2>/dev/null
  cp "$w/eval-$2/heldout_outputs.jsonl" "$out/outputs-$2.jsonl" 2>/dev/null
}
# The decoding benchmark on the AR model and the BD3 model adapted from it (when that trained), once
# both exist: issue 29 compares BD3 dynamic with BD3 static and with our AR. Seven decoders of AR and
# BD3 at three batch sizes take a few minutes: the stage starts only with 300 s left.
decode_bench() {
  if [ -z "${SKIP_DECODE:-}" ] && [ ! -f "$w/decode.json" ] && [ "$(left)" -gt 300 ]; then
  bd3=(); [ -f "$w/bd3/model/model.safetensors" ] && bd3=(--bd3 "$w/bd3/model")
  common=(--ar "$w/ar/model" "${bd3[@]}" --n 64 --provider cuda --max-new 96 --single 4)
  [ -f "$w/prompts.json" ] || ./node decode.bench.mjs "${common[@]}" --rows "$w/heldout.jsonl" --write-prompts "$w/prompts.json" --decoders resident --batches 1 >/dev/null
  [ -f "$w/hf.json" ] || /opt/torch/.venv/bin/python3 hf_generate.py --model "$w/ar/model" --prompts "$w/prompts.json" --batches 1,16,64 --single 4 --out "$w/hf.json" 2>&1 | grep transformers
  [ -f "$w/decode.json" ] || ./node decode.bench.mjs "${common[@]}" --prompts "$w/prompts.json" --reference "$w/hf.json" --batches 1,16,64 \
    --decoders "${DECODERS:-resident,resident-f16,resident-bf16,resident-graph,resident-f16-graph,resident-bf16-graph,host}" --host-batches 1 --out "$w/decode.json" 2>&1 | tail -n 60
  cp "$w/decode.json" "$w/hf.json" "$out/" 2>/dev/null
  fi
}
# AR_ARGS adds flags to the AR training (e.g. --batch-size 8 --grad-accum 2: the same tokens a step in
# half the memory, so another job can share the GPU).
# shellcheck disable=SC2086
train ar "$w/ar" ${AR_STEPS:-1500} --tokenizer "$w/tokenizer.json" ${AR_ARGS:-} && score "$w/ar" ar || exit 0
# SERVE_BENCH=1: wm serve on CUDA under 64 clients with the AR model and the held-out prompts —
# dynamic batching against none, then continuous batching against dynamic (issue 29).
if [ -n "${SERVE_BENCH:-}" ] && [ ! -f "$w/serve.txt" ] && [ "$(left)" -gt 200 ]; then
  sb=(--model "$w/ar/model" --provider cuda --rows "$w/heldout.jsonl" --concurrency 64 --max-batch 64 --max-tokens 96 --rounds 2 --warmup 64 --max-seconds 60 --max-rss-mb 8192)
  { ./node load.bench.mjs "${sb[@]}" --requests 1000 --off-requests 200; ./node load.bench.mjs "${sb[@]}" --compare continuous --requests 1000; } > "$w/serve.txt" 2>&1
  tail -n 12 "$w/serve.txt"; cp "$w/serve.txt" "$out/"
fi
# BD3 adapted from AR: the token shift is on (--token-shift auto with an AR --init). BD3_ARGS adds
# flags (e.g. --batch-size 8: 16 rows of 2 × 2,048 tokens ran out of memory on the H200).
# shellcheck disable=SC2086
train bd3 "$w/bd3" ${BD3_STEPS:-400} --init "$w/ar/model" --cuda-graph off ${BD3_ARGS:-} && score "$w/bd3" bd3
decode_bench
[ -f "$w/bd3/model/model.safetensors" ] || exit 0
# BD3 from scratch (SCRATCH_STEPS > 0): the same size and data, random weights, no token shift.
# shellcheck disable=SC2086
[ "${SCRATCH_STEPS:-0}" -gt 0 ] || exit 0
train bd3 "$w/bd3-scratch" "$SCRATCH_STEPS" --tokenizer "$w/tokenizer.json" --cuda-graph off ${BD3_ARGS:-} && score "$w/bd3-scratch" bd3-scratch
exit 0
