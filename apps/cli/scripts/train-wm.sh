#!/usr/bin/env bash
# `npx nx run cli:train-wm`: a small AR world model on episode-layout rows (every observation a
# target; packages/dataset/README.md, "Layouts"), from a generated ALFWorld corpus, then its greedy
# exact match and ROUGE-L on held-out transitions of unseen games (eval_out_of_distribution, one row
# per step, the world model alone: no local responder). Each stage is skipped once its output
# exists, and training resumes, so the target can be re-run after an interruption.
set -euo pipefail
cd "$(dirname "$0")/../../.."
w=${TRAIN_WM_DIR:-tmp/train-wm/episode}
cli() { node apps/cli/bin/diffworld.mjs "$@"; }
mkdir -p "$w"
[ -f "$w/train.jsonl" ] || cli env corpus alfworld --split train --episodes 300 --seed 1 --out "$w/train.jsonl"
[ -f "$w/valid.jsonl" ] || cli env corpus alfworld --split eval_in_distribution --episodes 8 --seed 2 --out "$w/valid.jsonl"
[ -f "$w/heldout.jsonl" ] || cli env corpus alfworld --split eval_out_of_distribution --episodes 8 --seed 3 --per-step --out "$w/heldout.jsonl"
[ -f "$w/tokenizer.json" ] || cli tokenizer train --data "$w/train.jsonl" --vocab-size 2048 --out "$w/tokenizer.json"
cli wm train --config apps/cli/configs/train-wm.episode.json --data "$w/train.jsonl" --eval-data "$w/valid.jsonl" \
  --tokenizer "$w/tokenizer.json" --out "$w/run" --auto-resume
[ -f "$w/eval/eval_summary.json" ] || cli eval wm --model "$w/run/model" --data "$w/heldout.jsonl" --out "$w/eval" --name heldout --max-new-tokens 64 --batch-size 16
