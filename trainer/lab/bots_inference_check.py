"""How often the play inference holds: in heuristic self-play, after every card, each seat that
``inference.could_not_beat`` says holds nothing as strong as a trick it let its opponents take —
does it, in the true hands?

    nice -n 10 python -m trainer.lab.bots_inference_check --games 15 --seed 1

Run on purpose, never imported by the app.
"""

from __future__ import annotations

import argparse

from trainer.bots.base import make_bot
from trainer.bots.inference import could_not_beat
from trainer.bots.table import Table
from trainer.rules.actions import Phase
from trainer.rules.cards import STRENGTH


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trainer.lab.bots_inference_check", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    held = broken = 0
    for seed in range(args.seed, args.seed + args.games):
        table = Table([make_bot("heuristic") for _ in range(4)], seed=seed)
        game = table.game
        while not game.is_over:
            table.step(max_actions=1)
            if game.is_over or game.phase is not Phase.PLAY:
                continue
            for seat, top in could_not_beat(game.view(0)).items():
                if any(STRENGTH[c.index] >= top for c in game.hand(seat)):
                    broken += 1
                else:
                    held += 1
    total = held + broken
    print(f"{args.games} games: the inference held {held} of {total} times ({100 * held / max(1, total):.1f} %), "
          f"checked after every card")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
