#!/bin/bash
# Stream B: the noisy-channel curves (heuristic team to 1,000 games a channel, search team to 200),
# in rounds so that a cut leaves both curves with balanced counts.
cd /work/wt-bots2
PY="${PY:-python3}"
export PYTHONPATH=/work/wt-bots2
G=trainer.lab.bots_games
CH="perfect;0.9/1;0.7/3;0.5/6"
for k in 1 2 3 4; do
  $PY -m $G "heuristic:signs=true" "heuristic:signs=false" --vigilance 0 --channels "$CH" \
      --games $(( 250 * k )) --seed 1 --out docs/bots_games/channel_heuristic.jsonl
  $PY -m $G "search:worlds=16,max_ms=20,signs=true" "search:worlds=16,max_ms=20,signs=false" --vigilance 0 \
      --channels "$CH" --games $(( 50 * k )) --seed 1 --out docs/bots_games/channel_search.jsonl
done
