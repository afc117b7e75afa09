"""The heuristic bot: the expert advice of the sources, rule by rule, and honest signs.

- Card play: :func:`trainer.bots.tactics.choose_card` (play low when the partner wins, spoil rather
  than give, test with a middle card, support a partner's mordienne, go for one's own).
- Chant vote: agree with a weak hand (the chant reshuffles luck), refuse with a strong one.
- Discards after a chant: the weakest cards.
- Declarations: offer to give up when the hand is weak and the partner signed misère (or is known
  weak); announce mordienne with a very strong team hand; otherwise pass.
- Answers: accept a give-up (a free point) unless the team is strong enough to commit to mordienne;
  accept an announced mordienne only with a strong team hand.
- Signs: every card up to its policy's level (default: up to the aces), misère when weak, the
  mordienne intention when it goes for it; before the declarations (the first sign point). At a
  table with lies, ``lie_rate`` is the chance per deal of adding one bluff (a luette it lacks).

``last_rule`` names the rule behind the latest decision (shown by the app, checked by the tests).

Imports trainer.rules, trainer.signals and the bots' own modules.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from trainer.bots.base import BotError, SignIntent, require_turn
from trainer.bots.channel import SignReliability
from trainer.bots.knowledge import belief_in, believed_signs, knowledge_of, own_signs, partner_of, situation_of
from trainer.bots.signing import SignPolicy, card_signals, figure_announcements
from trainer.bots.tactics import choose_card
from trainer.rules.actions import (
    ACCEPT,
    ANNOUNCE_MORDIENNE,
    GIVE_UP,
    NO,
    PASS,
    REFUSE,
    YES,
    Action,
    Declaration,
    Discard,
    Phase,
)
from trainer.rules.cards import Card
from trainer.rules.ruleset import AnnouncedMordienne, GivingUp
from trainer.rules.views import PlayerView
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import is_weak_hand

# Rule names for the decisions outside the tricks.
CHANT_YES = "chant: agree with a weak hand"
CHANT_NO = "chant: refuse with a good hand"
DISCARD_WEAKEST = "discard the weakest card"
OFFER_GIVE_UP = "give up: both partners are weak"
ANNOUNCE = "announce mordienne: a very strong team hand"
PASS_RULE = "pass"
ACCEPT_GIVE_UP = "accept the give-up: a free point"
REFUSE_GIVE_UP = "refuse the give-up: strong enough to commit to mordienne"
ACCEPT_MORDIENNE = "accept the announced mordienne: our team is strong"
DECLINE_MORDIENNE = "decline the announced mordienne"


def top_cards(hand: Iterable[Card]) -> int:
    """Cards at level 9 or better (luettes, doubles, aces): the trick-takers."""
    return sum(1 for c in hand if c.level <= 9)


def mordienne_hand(hand: Iterable[Card]) -> bool:
    """Enough sure winners to take the last three tricks: three luettes, or two luettes and two doubles."""
    luettes = sum(1 for c in hand if c.level <= 4)
    doubles = sum(1 for c in hand if 5 <= c.level <= 8)
    return luettes >= 3 or (luettes >= 2 and doubles >= 2)


class HeuristicBot:
    """Plays the sources' advice; see the module docstring."""

    name = "heuristic"

    def __init__(
        self, policy: SignPolicy | None = None, signs: bool = True, mordienne: bool = True,
        lie_rate: float = 0.0, announce: bool | None = None, discreet: bool | None = None,
    ) -> None:
        if not 0.0 <= float(lie_rate) <= 1.0:
            raise BotError(f"lie_rate must be a chance between 0 and 1, got {lie_rate!r}")
        self.policy = policy if policy is not None else SignPolicy()
        if announce is not None:
            # Tell the figures aloud after the aces sign (relative announcements).
            self.policy = replace(self.policy, announce_figures=bool(announce))
        if discreet is not None:
            # Sign only while the opponents look away (at a timed table: the first clear moment).
            self.policy = replace(self.policy, discreet=bool(discreet))
        self.signs_enabled = signs
        self.try_mordienne = mordienne
        self.lie_rate = float(lie_rate)
        self.lying_allowed = False
        self.partner_policy: SignPolicy | None = None
        self.seat: int | None = None
        self.last_rule = ""
        self.reliability: SignReliability | None = None

    @property
    def trust(self) -> float:
        """How far it believes a sign before its reading: four times in five at a table with lies, else
        fully (the same attribute as the search bot's, read by the coach)."""
        return 0.8 if self.lying_allowed else 1.0

    def hears_through(self, reliability: SignReliability) -> None:
        """The partner's signs reach this bot through a camera read with these figures
        (:class:`~trainer.bots.channel.SignReliability`)."""
        self.reliability = reliability

    def seated(self, seat: int, partner_policy: SignPolicy | None, lying_allowed: bool = False) -> None:
        self.seat = seat
        self.partner_policy = partner_policy
        self.lying_allowed = lying_allowed

    # -- decisions --------------------------------------------------------------------------

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(view)
        if phase is Phase.CHANT_VOTE:
            strong = top_cards(view.hand)
            self.last_rule = CHANT_YES if strong <= 2 else CHANT_NO
            return YES if strong <= 2 else NO
        if phase is Phase.DISCARD:
            self.last_rule = DISCARD_WEAKEST
            return Discard(min(view.hand, key=lambda c: (c.strength, -c.index)))
        if phase is Phase.DECLARE:
            return self._declare(view)
        if phase is Phase.ANSWER:
            return self._answer(view)
        self.last_rule = "only action"
        return view.legal_actions[0]

    def _team_strength(self, view: PlayerView) -> float:
        """Our trick-takers: ours, plus those the partner signed (aces by count), each sign counted
        with the chance it is true (:func:`~trainer.bots.knowledge.sign_chance`): a sign a camera
        may have invented adds what the camera's figures say it is worth, not a whole card."""
        partner = partner_of(view)
        total = float(top_cards(view.hand))
        for r, chance in believed_signs(view, trust=self.trust, reliability=self.reliability):
            if r.seat != partner:
                continue
            if r.signal.sign is Sign.AS:
                total += chance * r.signal.count
            elif r.signal.sign.cards:
                total += chance * len(r.signal.sign.cards)
        return total

    def _partner_weak(self, view: PlayerView) -> bool:
        """The partner signed misère, and the sign is more likely true than not."""
        partner = partner_of(view)
        return partner is not None and belief_in(
            view, partner, Sign.MISERE, trust=self.trust, reliability=self.reliability) >= 0.5

    def _declare(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if GIVE_UP in legal and is_weak_hand(view.hand) and self._partner_weak(view):
            self.last_rule = OFFER_GIVE_UP
            return GIVE_UP
        rules = view.ruleset
        if (
            ANNOUNCE_MORDIENNE in legal
            and rules.announced_mordienne is AnnouncedMordienne.ACCEPT_OR_DECLINE
            and self._team_strength(view) >= 8
        ):
            self.last_rule = ANNOUNCE
            return ANNOUNCE_MORDIENNE
        self.last_rule = PASS_RULE
        return PASS

    def _answer(self, view: PlayerView) -> Action:
        declaration = None
        for _, decl in view.declarations:
            if decl is not Declaration.PASS:
                declaration = decl
        strength = self._team_strength(view)
        if declaration is Declaration.GIVE_UP:
            if view.ruleset.giving_up is GivingUp.ACCEPT_OR_REFUSE and strength >= 8 and mordienne_hand(view.hand):
                self.last_rule = REFUSE_GIVE_UP
                return REFUSE
            self.last_rule = ACCEPT_GIVE_UP
            return ACCEPT
        # An announced mordienne: declining gives them 1 now; accepting plays for 2.
        if strength >= 5:
            self.last_rule = ACCEPT_MORDIENNE
            return ACCEPT
        self.last_rule = DECLINE_MORDIENNE
        return REFUSE

    def going_for_mordienne(self, view: PlayerView) -> bool:
        if not self.try_mordienne:
            return False
        if any(r.signal.sign is Sign.MORDIENNE for r in own_signs(view)):
            return True
        return any(s == view.seat and d is Declaration.MORDIENNE for s, d in view.declarations)

    def _play(self, view: PlayerView) -> Card:
        knowledge = knowledge_of(
            view, partner_policy=self.partner_policy, trust=self.trust, reliability=self.reliability,
        )
        situation = situation_of(view, knowledge, going_for_mordienne=self.going_for_mordienne(view),
                                 trust=self.trust, reliability=self.reliability)
        index, rule = choose_card(situation)
        self.last_rule = rule
        return Card.from_index(index)

    # -- signs ----------------------------------------------------------------------------------

    def signals(self, view: PlayerView, rng: random.Random) -> list[SignIntent]:
        """Once per deal, at the first sign point: the policy's card signs, and the mordienne
        intention when the hand is made for it (and no trick is taken yet)."""
        if not self.signs_enabled or self.policy.silent or own_signs(view) or view.tricks:
            return []
        hand = view.hand
        intents = []
        for signal in card_signals(hand, self.policy):
            words = figure_announcements(signal, hand) if self.policy.announce_figures else ()
            intents.append(SignIntent(signal, self.policy.discreet, tuple(words)))
        if self.policy.mordienne and self.try_mordienne and mordienne_hand(hand):
            intents.append(SignIntent(Signal(Sign.MORDIENNE), self.policy.discreet))
        if self.lying_allowed and self.lie_rate > 0 and rng.random() < self.lie_rate:
            # A bluff: claim a luette we do not hold (the opponents who catch it are misled; so is
            # the partner, which is why a table with lies makes every sign a likelihood).
            missing = [c for c in (Card.MONSIEUR, Card.MADAME, Card.BORGNE, Card.VACHE) if c not in hand]
            lie = Sign.for_card(rng.choice(missing)) if missing else None
            if lie is not None:  # every luette has its sign
                intents.append(SignIntent(Signal(lie), self.policy.discreet))
        return intents
