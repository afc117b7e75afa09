#!/bin/bash
# Stream A: oracle and search to 1,000 paired seeds, then the time curve in balanced rounds.
cd /work/wt-bots2
PY="${PY:-python3}"
export PYTHONPATH=/work/wt-bots2
G=trainer.lab.bots_games
$PY -m $G oracle heuristic --games 1000 --seed 1 --out docs/bots_games/oracle_vs_heuristic.jsonl
$PY -m $G search heuristic --games 1000 --seed 1 --out docs/bots_games/search_vs_heuristic.jsonl
for k in 1 2 3 4 5 6 7 8; do
  for pair in "10 50" "30 25" "100 12" "300 5"; do
    set -- $pair
    $PY -m $G "search:worlds=100000,max_ms=$1" heuristic --games $(( $2 * k )) --seed 1 \
        --out docs/bots_games/time_curve_$1.jsonl
  done
done
