"""How often the coach's claims hold when the deal is replayed with the sign made, or without it.

    .venv/bin/python scripts/coach_claims.py [--seeds 40]

"A sign would have helped": a game where the person passes, refuses the chant, plays its strongest
legal card and makes no sign; each claim is replayed to that deal with the sign made first, and
counts as confirmed when North then plays low (a card no stronger than before) and the team still
takes the trick.

"Your signs helped": the same person making every honest sign its hand allows at the start of each
deal; each claim is replayed with no sign in that deal, and counts as confirmed when North then no
longer plays low in the first trick named. Prints the counts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.lab import coach_replay  # noqa: E402  (the games and the judging the test uses)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    args = parser.parse_args()
    deals, claims = 0, []
    for seed in range(args.seeds):
        played, found = coach_replay.would_help_claims(seed)
        deals += played
        claims += found
    confirmed = sum(c.confirmed for c in claims)
    print(f"seeds 0..{args.seeds - 1}: {deals} deals, {len(claims)} 'a sign would have helped' claims, "
          f"{confirmed} confirmed by replay ({100 * confirmed / max(len(claims), 1):.0f} %)")
    helped = [c for seed in range(args.seeds) for c in coach_replay.helped_claims(seed)]
    confirmed = sum(c.confirmed for c in helped)
    print(f"seeds 0..{args.seeds - 1}, honest signs every deal: {len(helped)} 'your signs helped' claims, "
          f"{confirmed} confirmed by replaying the deal without them ({100 * confirmed / max(len(helped), 1):.0f} %)")


if __name__ == "__main__":
    main()
