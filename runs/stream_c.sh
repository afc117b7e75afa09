#!/bin/bash
# Stream C: strength against time, search vs heuristic, the four budgets in balanced rounds
# (the same seeds 1..N for every budget; 300 ms costs ~30x 10 ms, so fewer games there).
cd /work/wt-bots2
PY="${PY:-python3}"
export PYTHONPATH=/work/wt-bots2
G=trainer.lab.bots_games
for k in $(seq 1 12); do
  for pair in "10 40" "30 20" "100 8" "300 3"; do
    set -- $pair
    $PY -m $G "search:worlds=100000,max_ms=$1" heuristic --games $(( $2 * k )) --seed 1 \
        --out docs/bots_games/time_curve_$1.jsonl
  done
done
