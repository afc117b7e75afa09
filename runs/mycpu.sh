#!/bin/bash
# CPU seconds used by this session's bots_games processes over an interval (share of a core).
t() { for p in $(pgrep -f "trainer.lab.bots_games"); do awk '{print $14+$15+$16+$17}' /proc/$p/stat 2>/dev/null; done | awk '{s+=$1} END {print s+0}'; }
a=$(t); sleep ${1:-30}; b=$(t); echo "share of one core: $(echo "($b-$a)/100/${1:-30}" | bc -l | cut -c1-5)"
