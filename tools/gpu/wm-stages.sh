# World-model stages shared by run-wm-fidelity.sh and run-lookup-probe.sh (sourced from bundle/).
# The caller sets $out (the results folder) and left() (seconds to its call's deadline); NODE (default
# ./node, the bundle's) and PROVIDER (default cuda) say what runs them.

# wm_train DIR STEPS ARGS…: `wm train` into DIR (resumed if killed, a checkpoint every 100 steps) until
# its model exists or the deadline comes; its metrics go to $out/<DIR's name>-metrics.jsonl. Fails when
# DIR has no model yet (too little time left, or cut off).
wm_train() {
  local dir=$1 steps=$2
  shift 2
  [ -f "$dir/model/model.safetensors" ] && return 0
  [ "$(left)" -gt 60 ] || return 1
  timeout "$(left)" "${NODE:-./node}" cli.mjs wm train --steps "$steps" --out "$dir" --provider "${PROVIDER:-cuda}" --save-every 100 --auto-resume "$@" 2>&1 | grep -v '^step ' | tail -n 3
  cp "$dir/metrics.jsonl" "$out/$(basename "$dir")-metrics.jsonl" 2>/dev/null
  [ -f "$dir/model/model.safetensors" ]
}

# wm_score MODEL DATA DIR: greedy `eval wm` of MODEL on LIMIT (default 500) rows of DATA into DIR
# (up to 96 new tokens, batches of 64); skipped once DIR has its summary.
wm_score() {
  [ -f "$3/eval_summary.json" ] && return 0
  "${NODE:-./node}" cli.mjs eval wm --model "$1" --data "$2" --limit "${LIMIT:-500}" --out "$3" --name heldout --provider "${PROVIDER:-cuda}" \
    --batch-size 64 --max-new-tokens 96 2>&1 | tail -n 12
}
