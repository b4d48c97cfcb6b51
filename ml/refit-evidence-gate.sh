#!/usr/bin/env bash
# Refits one model's evidence gate (workers/fitted/evidence-gate-<model>.json) on SciFact
# TRAIN only, with every input the gate reads made out of fold, as a new claim's would be:
#   1. stance fold models: the shipped stance model's configuration refitted without each fifth
#      of the train claims (ml/stance-fit.ts --folds; the shipped file is not touched);
#   2. the train claims dump: the app's claim check over the train claims (hybrid, 3 sources, no
#      gate), each claim judged by the stance fold model and scored by an answer evaluator
#      refitted without its fold (ml/passage-folds.ts, from the evaluator's crag-fit
#      records);
#   3. the gate's fit on that dump (ml/evidence-gate-fit.ts).
# Run it after refitting the stance model (and its audit calibration) or the answer evaluator:
# evidence-gate.test.ts fails until the gate is refitted over both.
#
# usage: ml/refit-evidence-gate.sh <model: all-MiniLM-L6-v2 | use-lite> <crag train records> [work dir]
#   <crag train records>: the --records FILE of the evaluator's own fit (the `command` in
#   workers/fitted/evaluator-<model>.json); `--task crag-fit ... --records FILE` writes it when the
#   file does not exist. Without the evaluator's refit, collect it with
#   `npm run eval -- --dataset ../shared/datasets/scifact --task crag --split train --model <model> --records FILE`.
# SUPPORT bias: MiniLM may take 0.25 (its fixture's plain contradiction stays CONTRADICT,
# projects-link.test.ts), USE-lite none (see eval/README.md "One code path").
set -euo pipefail
model=${1:?model}
records=$(realpath -m "${2:?crag train records}")
work=$(realpath -m --relative-to="$(dirname "$0")/.." "${3:-.cache/fit/gate-$model}")
cd "$(dirname "$0")/.."   # the repo root: the paths below are relative to it
dataset=${DATASET:-../shared/datasets/scifact}
case "$model" in
  all-MiniLM-L6-v2) biases=0,0.25 ;;
  use-lite) biases=0 ;;
  *) echo "no evidence gate for $model" >&2; exit 2 ;;
esac
[ -f "$records" ] || { echo "missing $records (see the usage above)" >&2; exit 2; }
# The records must be the model's own (another model's records have the same feature names):
# the evaluator's fit names its --records file; FORCE=1 accepts a copy under another name.
evaluator=$(node -e "process.stdout.write(JSON.parse(require('fs').readFileSync('workers/fitted/evaluator-$model.json','utf8')).command)")
case "$evaluator" in
  *"$(basename "$records")"*) ;;
  *) [ "${FORCE:-}" = 1 ] || { echo "the $model evaluator was fitted by: $evaluator -- pass its --records file (or FORCE=1)" >&2; exit 2; } ;;
esac
mkdir -p "$work"
config=$(node -e "process.stdout.write(JSON.parse(require('fs').readFileSync('workers/fitted/stance-$model.json','utf8')).provenance.config)")
grid="[$config]"
npx tsx ml/stance-fit.ts --dataset "$dataset" --model "$model" --grid "$grid" --folds "$work/stance-folds" --foldsOnly 1
npm run eval -- --dataset "$dataset" --task claims --model "$model" --split train --mode hybrid --docs 3 --skipAudit 1 \
  --passageRecords "$records" --stanceFolds "$work/stance-folds" --dumpPipeline "$work/dump.jsonl" > "$work/dump.log"
npx tsx ml/evidence-gate-fit.ts --dataset "$dataset" --model "$model" --biases "$biases" --dump "hybrid=$work/dump.jsonl"
npx prettier --write "workers/fitted/evidence-gate-$model.json" > /dev/null
