#!/bin/bash
# Stream D: the oracle's seeds 751..1000 in their own log (game_seed = master + index and sides by
# index parity, so --seed 751 plays the games of indices 750..999 of the --seed 1 run); merged into
# oracle_vs_heuristic.jsonl at the end. Stops the first oracle process once it passes seed 750.
cd /work/wt-bots2
export PYTHONPATH=/work/wt-bots2
( while kill -0 24192 2>/dev/null; do
    if [ "$(wc -l < docs/bots_games/oracle_vs_heuristic.jsonl)" -ge 750 ]; then kill 24192; fi
    sleep 15
  done ) &
python3 -m trainer.lab.bots_games oracle heuristic --games 250 --seed 751 --out docs/bots_games/oracle_vs_heuristic_751.jsonl
wait
