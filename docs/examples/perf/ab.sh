#!/bin/sh
# Old engine against this one, whole processes in turn (farm-bench's paired ratios):
#   git worktree add --detach /tmp/before b398759 && sh docs/examples/perf/ab.sh /tmp/before
set -eu
BEFORE=$1
HERE=$(cd "$(dirname "$0")/../../.." && pwd)
PY=${PYTHON:-python}
WORK=$HERE/docs/examples/perf/work.py
for w in "games 800" "games4 500" "games6 300" "clone 6000" "determinize 20000" "mcts 40"; do
  echo "=== $w"
  farm-bench -n 7 --timeout 600 --vs "env PYTHONPATH=$BEFORE $PY $WORK $w" -- env PYTHONPATH=$HERE $PY $WORK $w
done
