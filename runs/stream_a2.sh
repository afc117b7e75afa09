#!/bin/bash
# Stream A (continued): once the oracle run ends, search to the same 1,000 seeds.
cd /work/wt-bots2
export PYTHONPATH=/work/wt-bots2
while kill -0 24192 2>/dev/null; do sleep 10; done
python3 -m trainer.lab.bots_games search heuristic --games 1000 --seed 1 --out docs/bots_games/search_vs_heuristic.jsonl
