"""The coach's claims checked by replaying the deal: does the partner's play change as the coach says?

Used by ``tests/ui/test_ui_coach.py`` (a few seeds, with thresholds) and by
``python -m trainer.lab.coach_replay [--seeds 40]`` (many seeds, counts printed), so both drive the
games and judge a claim the same way.

* "A sign would have helped": a game where the person passes, refuses the chant, plays its strongest
  legal card and makes no sign; the claim is replayed to that deal with the sign made first, and is
  confirmed when North then plays low (a card no stronger than before) and the team still takes the
  trick.
* "Your signs helped": the same person making every honest sign its hand allows at the start of
  each deal; the claim is replayed with no sign in that deal, and is confirmed when North then no
  longer plays low in the first trick named.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from trainer.bots import tactics
from trainer.rules.actions import Declaration, Declare
from trainer.rules.cards import ACES, Card
from trainer.signals.signs import Sign, Signal
from trainer.ui import coach
from trainer.ui.game_session import HUMAN_SEAT, PARTNER_SEAT, GameSession
from trainer.ui.settings import Language


def play(seed: int, *, until_deal: int | None = None, sign_in_deal: tuple[int, Sign] | None = None,
         honest_except: int | None = None) -> GameSession:
    """A game where the person passes, refuses the chant and plays its strongest legal card; with
    ``sign_in_deal`` it makes that sign as its first input of that deal; with ``honest_except`` it
    makes every honest sign its hand allows at the start of each deal but that one (0: every deal)."""
    from trainer.signals.table import honest_signals

    session = GameSession.start("vendee", "classic", seed)
    signed = False
    dealt: set[int] = set()
    while not session.table.is_over:
        if session.paused:
            session.next()
            continue
        view = session.table.view(HUMAN_SEAT)
        if until_deal is not None and view.deal_number > until_deal:
            break
        if honest_except is not None and view.deal_number not in dealt:
            dealt.add(view.deal_number)
            if view.deal_number != honest_except:
                for signal in honest_signals(view.hand):
                    session.sign(session.table.made(signal))
        if sign_in_deal is not None and view.deal_number == sign_in_deal[0] and not signed:
            sign = sign_in_deal[1]
            count = sum(c in ACES for c in view.hand) if sign is Sign.AS else 1
            session.sign(session.table.made(Signal(sign, count)))
            signed = True
        actions = [a for a in view.legal_actions
                   if not (isinstance(a, Declare) and a.declaration is not Declaration.PASS)]
        session.act(actions[0])
    return session


def north_move(session: GameSession, deal: int, trick: int) -> Any:
    """North's card move in that deal's trick (1-based)."""
    return next(m for m in session.moves if m.deal == deal and m.seat == PARTNER_SEAT
                and m.trick == trick - 1 and isinstance(m.action, Card))


def _reviews(session: GameSession) -> Iterator[tuple[Any, Any]]:
    for result in session.table.game.results:
        yield result, coach.deal_coach(session.moves, session.table.history, result, Language.ENGLISH,
                                       hand=session.deal_hands.get(result.deal, ()))


@dataclass(frozen=True, slots=True)
class WouldHelp:
    """One "a sign would have helped" claim and its replay with the sign made."""

    line: str
    before: Any  # North's move as played (without the sign)
    after: Any  # North's move in the replay with the sign
    team_took_it: bool  # the replayed trick went to the person's team

    @property
    def confirmed(self) -> bool:
        # North now plays low, a card no stronger than the one it spent, and the team still wins it.
        return (self.after.rule == tactics.PARTNER_WINNING_PLAY_LOW
                and self.after.action.strength <= self.before.action.strength and self.team_took_it)


@dataclass(frozen=True, slots=True)
class Helped:
    """One "your signs helped" claim and North's move in the replay without the signs."""

    line: str
    with_signs: Any
    without_signs: Any

    @property
    def confirmed(self) -> bool:
        return self.without_signs.rule != tactics.PARTNER_WINNING_PLAY_LOW


def would_help_claims(seed: int) -> tuple[int, list[WouldHelp]]:
    """The deals played with that seed (no signs), and each "would have helped" claim replayed."""
    session = play(seed)
    claims = []
    for result, review in _reviews(session):
        for line in review.would_help:
            trick = _number(r"trick (\d+):", line)
            mine = dict(result.tricks[trick - 1].plays(4))[HUMAN_SEAT]
            sign = Sign.AS if mine in ACES else Sign.for_card(mine)
            if sign is None:
                raise ValueError(f"the coach said a sign would have helped in {line!r}, but {mine} has no sign")
            again = play(seed, until_deal=result.deal, sign_in_deal=(result.deal, sign))
            replayed = next(r for r in again.table.game.results if r.deal == result.deal)
            claims.append(WouldHelp(line, north_move(session, result.deal, trick),
                                    north_move(again, result.deal, trick),
                                    replayed.tricks[trick - 1].winner in (HUMAN_SEAT, PARTNER_SEAT)))
    return len(session.table.game.results), claims


def _number(pattern: str, line: str) -> int:
    """The trick number a coach's line starts with (``pattern``'s group); ValueError naming the line."""
    match = re.match(pattern, line)
    if match is None:
        raise ValueError(f"a coach's line without a trick number: {line!r}")
    return int(match.group(1))


def helped_claims(seed: int) -> list[Helped]:
    """Each "your signs helped" claim of the honest signer's game with that seed, replayed silent."""
    session = play(seed, honest_except=0)
    claims = []
    for result, review in _reviews(session):
        for line in review.helped:
            trick = _number(r"tricks? (\d+)", line)
            silent = play(seed, until_deal=result.deal, honest_except=result.deal)
            claims.append(Helped(line, north_move(session, result.deal, trick),
                                 north_move(silent, result.deal, trick)))
    return claims


def main(argv: list[str] | None = None) -> int:
    """Print how many of each kind of claim the replays confirm over ``--seeds`` games."""
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m trainer.lab.coach_replay", description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40, help="games with seeds 0..N-1")
    args = parser.parse_args(argv)
    deals, claims = 0, []
    for seed in range(args.seeds):
        played, found = would_help_claims(seed)
        deals += played
        claims += found
    confirmed = sum(c.confirmed for c in claims)
    print(f"seeds 0..{args.seeds - 1}: {deals} deals, {len(claims)} 'a sign would have helped' claims, "
          f"{confirmed} confirmed by replay ({100 * confirmed / max(len(claims), 1):.0f} %)")
    helped = [c for seed in range(args.seeds) for c in helped_claims(seed)]
    confirmed = sum(c.confirmed for c in helped)
    print(f"seeds 0..{args.seeds - 1}, honest signs every deal: {len(helped)} 'your signs helped' claims, "
          f"{confirmed} confirmed by replaying the deal without them ({100 * confirmed / max(len(helped), 1):.0f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
