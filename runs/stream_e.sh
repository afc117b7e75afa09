#!/bin/bash
# Stream E: the oracle's seeds 651..750 in a third log (even offset: the same games as the
# --seed 1 run's indices 650..749); the first oracle process is stopped once it passes seed 650.
cd /work/wt-bots2
export PYTHONPATH=/work/wt-bots2
( while kill -0 24192 2>/dev/null; do
    if [ "$(wc -l < docs/bots_games/oracle_vs_heuristic.jsonl)" -ge 650 ]; then kill 24192; fi
    sleep 15
  done ) &
python3 -m trainer.lab.bots_games oracle heuristic --games 100 --seed 651 --out docs/bots_games/oracle_vs_heuristic_651.jsonl
wait
