#!/usr/bin/env bash
# `npx nx run mdlm-core:bench-decode`: the decoding benchmark on this machine's CPU — a tiny AR
# world model and a BD3 one adapted from it (decode-cpu.json, trained briefly on a generated
# ALFWorld corpus whose prompts are ~2.5k tokens; the speed, not the answers, is what is measured
# here, and the [x_t ; x_0] rows of BD3 training take ~10 GB at 3k tokens), decoded by the host-cache and the resident
# decoder side by side. Models and corpus are kept in tmp/bench-decode; extra arguments go to the
# bench (e.g. --batches 1,16 --n 16). The GPU version, against transformers: bundle/run-wm-fidelity.sh (tools/gpu).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
w=tmp/bench-decode
cli() { node apps/cli/bin/diffworld.mjs "$@"; }
cfg=packages/mdlm-core/src/bench/decode-cpu.json
mkdir -p "$w"
[ -f "$w/train.jsonl" ] || cli env corpus alfworld --split train --episodes 60 --seed 1 --out "$w/train.jsonl"
[ -f "$w/eval.jsonl" ] || cli env corpus alfworld --split eval_in_distribution --episodes 8 --seed 2 --out "$w/eval.jsonl"
[ -f "$w/tokenizer.json" ] || cli tokenizer train --data "$w/train.jsonl" --vocab-size 2048 --out "$w/tokenizer.json"
[ -f "$w/ar/model/model.safetensors" ] || cli wm train --config "$cfg" --objective ar --steps 30 --data "$w/train.jsonl" --eval-data "$w/eval.jsonl" --tokenizer "$w/tokenizer.json" --out "$w/ar" --provider cpu --auto-resume | tail -n 1
[ -f "$w/bd3/model/model.safetensors" ] || cli wm train --config "$cfg" --objective bd3 --init "$w/ar/model" --steps 4 --batch-size 1 --seq-length 3072 --data "$w/train.jsonl" --eval-data "$w/eval.jsonl" --out "$w/bd3" --provider cpu --auto-resume | tail -n 1
exec npx tsx --conditions=@diffworld/source packages/mdlm-core/src/bench/decode.bench.ts --ar "$w/ar/model" --bd3 "$w/bd3/model" --rows "$w/eval.jsonl" \
  --n 8 --batches 1,8 --single 4 --max-new 48 --decoders resident,host --host-batches 1,8 --provider cpu "$@"
