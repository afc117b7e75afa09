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
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from test_ui_coach import _north_move, _play  # noqa: E402  (the test's own driver)

from trainer.bots import tactics  # noqa: E402
from trainer.rules.cards import ACES  # noqa: E402
from trainer.signals.signs import Sign  # noqa: E402
from trainer.ui import coach  # noqa: E402
from trainer.ui.game_session import HUMAN_SEAT, PARTNER_SEAT  # noqa: E402
from trainer.ui.settings import Language  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    args = parser.parse_args()
    claims = confirmed = deals = 0
    for seed in range(args.seeds):
        session = _play(seed)
        for result in session.table.game.results:
            deals += 1
            review = coach.deal_coach(session.moves, session.table.history, result, Language.ENGLISH,
                                      hand=session.deal_hands.get(result.deal, ()))
            for line in review.would_help:
                claims += 1
                trick = int(re.match(r"trick (\d+):", line).group(1))
                mine = dict(result.tricks[trick - 1].plays(4))[HUMAN_SEAT]
                before = _north_move(session, result.deal, trick)
                sign = Sign.AS if mine in ACES else Sign.for_card(mine)
                again = _play(seed, until_deal=result.deal, sign_in_deal=(result.deal, sign))
                after = _north_move(again, result.deal, trick)
                replayed = next(r for r in again.table.game.results if r.deal == result.deal)
                confirmed += (after.rule == tactics.PARTNER_WINNING_PLAY_LOW
                              and after.action.strength <= before.action.strength
                              and replayed.tricks[trick - 1].winner in (HUMAN_SEAT, PARTNER_SEAT))
    print(f"seeds 0..{args.seeds - 1}: {deals} deals, {claims} 'a sign would have helped' claims, "
          f"{confirmed} confirmed by replay ({100 * confirmed / max(claims, 1):.0f} %)")
    claims = confirmed = 0
    for seed in range(args.seeds):
        session = _play(seed, honest_except=0)
        for result in session.table.game.results:
            review = coach.deal_coach(session.moves, session.table.history, result, Language.ENGLISH,
                                      hand=session.deal_hands.get(result.deal, ()))
            for line in review.helped:
                claims += 1
                trick = int(re.match(r"tricks? (\d+)", line).group(1))
                silent = _play(seed, until_deal=result.deal, honest_except=result.deal)
                confirmed += _north_move(silent, result.deal, trick).rule != tactics.PARTNER_WINNING_PLAY_LOW
    print(f"seeds 0..{args.seeds - 1}, honest signs every deal: {claims} 'your signs helped' claims, "
          f"{confirmed} confirmed by replaying the deal without them ({100 * confirmed / max(claims, 1):.0f} %)")


if __name__ == "__main__":
    main()
