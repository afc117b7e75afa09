"""What a bot signs, and when: a signing policy, shared by partners as a convention between them.

A :class:`SignPolicy` says which cards a bot tells its partner (every card up to ``max_level``:
4 = the luettes, 8 = the doubles too, 9 = the aces too), whether it waits until the opponents look
away (``discreet``: caught less often, made one sign point later), whether it tells its weak hand
(misère) and its mordienne, and whether it tells the figures aloud after the aces sign with
relative announcements. A partner bot that knows the policy reads the silence too: no sign of the
Borgne from a partner who signs up to level 8 means the partner has no Borgne.

:func:`choose_policy` weighs the partner's gain against the opponents' chance of catching a sign:
with two opponents each catching with chance ``p``, the information leaks with ``1 - (1 - p)^2``;
signing pays while the partner's use of it outweighs the leaked share — the break-even catch chance
is measured with ``aluette signal-value`` (docs/bots.md).

Imports trainer.rules and trainer.signals only.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.rules.cards import Card
from trainer.signals.relative import Announcement, announce, base_level
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import Vigilance, honest_signals, is_weak_hand


@dataclass(frozen=True, slots=True)
class SignPolicy:
    """Which signs a bot makes (see the module docstring). ``max_level=0`` signs no card."""

    max_level: int = 9
    discreet: bool = False
    misere: bool = True
    mordienne: bool = True
    announce_figures: bool = False

    @property
    def silent(self) -> bool:
        return self.max_level <= 0 and not self.misere and not self.mordienne


NO_SIGNS = SignPolicy(max_level=0, misere=False, mordienne=False)


def card_signals(hand: tuple[Card, ...], policy: SignPolicy) -> list[Signal]:
    """The truthful card signs ``policy`` makes for ``hand`` (misère included when weak)."""
    out = []
    for signal in honest_signals(hand):
        sign = signal.sign
        if sign is Sign.MISERE:
            if policy.misere and is_weak_hand(hand):
                out.append(signal)
            continue
        level = max(c.level for c in sign.cards)
        if level <= policy.max_level:
            out.append(signal)
    return out


def figure_announcements(signal: Signal, hand: tuple[Card, ...]) -> tuple[Announcement, ...]:
    """After an aces sign: the king/cavalier/valet levels held, told relative to the ace."""
    if signal.sign is not Sign.AS:
        return ()
    levels = sorted({c.level for c in hand if 10 <= c.level <= 12})
    return announce(base_level(Sign.AS), levels)


def leak_chance(vigilance: Vigilance, discreet: bool, opponents: int = 2) -> float:
    """The chance that at least one opponent catches a sign."""
    p = vigilance.chance(discreet)
    return 1.0 - (1.0 - p) ** opponents


SIGNS_PAY_BELOW = 0.5
"""Per-opponent catch chance at which signing stops paying for the search team, measured with
``aluette signal-value`` (docs/bots.md): the value of open signs falls from +17 points of win rate
at vigilance 0 to about zero at 0.5-0.75 and -18 at 1.0; 0.5 is the cautious end of that break-even."""


def choose_policy(vigilance: Vigilance, *, pays_below: float = SIGNS_PAY_BELOW) -> SignPolicy:
    """A policy for a table of this vigilance, weighing the partner's gain against the leak.

    Signs are made discreetly (caught ``discreet_factor`` times as often, at the cost of reaching
    the partner one sign point later). While the catch chance of a discreet sign stays well below
    the measured break-even ``pays_below``, every card up to the aces is signed; closer to it only
    the single strong cards (luettes and doubles), whose knowledge changes the play most for the
    partner; beyond it only the luettes; and no card at all once a sign reaches one of the two opponents
    four times in five (:func:`leak_chance`).
    """
    p = vigilance.chance(discreet=True)
    if p < 0.5 * pays_below:
        return SignPolicy(max_level=9, discreet=True)
    if p < pays_below:
        return SignPolicy(max_level=8, discreet=True)
    if leak_chance(vigilance, discreet=True) < 0.8:
        return SignPolicy(max_level=4, discreet=True)
    return SignPolicy(max_level=0, discreet=True, misere=True, mordienne=True)
