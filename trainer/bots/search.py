"""The search bot: determinization (Perfect-Information Monte Carlo) over worlds consistent with its view.

At each card to play it samples hidden worlds from what its seat knows — its hand, the public play,
and the signs it received (:mod:`trainer.bots.knowledge`): as hard constraints at a truthful table,
as constraints kept with chance ``trust`` per world when lies are allowed (likelihood weighting), plus
what a bot partner's silence says under its known signing policy. In every world it plays each
distinct legal card (cards of equal strength are one choice) to the end of the deal on
:class:`~trainer.rules.fastdeal.FastDeal` with a rollout policy, and picks the card with the best
mean team score (mordienne counts 2). Ties go to the heuristic's card.

Budget: ``worlds`` per decision, cut short by ``max_ms`` (default 60 ms of this process's CPU
time, so a machine busy with other work slows the bot down rather than weakening it) so a decision
stays under the 100 ms median / 500 ms p99 targets on one core.

Outside the tricks (chant, discards, declarations, answers) it plays the heuristic's advice. Its
signs follow a :class:`~trainer.bots.signing.SignPolicy` (default: every card up to the aces,
discreetly; ``discreet=`` and ``sign_level=`` change it); given the table's vigilance
(``vigilance=``, or the table's own through :meth:`SearchBot.at_table`) it chooses one with
:func:`~trainer.bots.signing.choose_policy` (the partner's gain against the catch chance).

Imports trainer.rules, trainer.signals and the bots' own modules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from trainer.bots.base import BotError, SignIntent, require_turn
from trainer.bots.channel import SignReliability
from trainer.bots.heuristic import HeuristicBot
from trainer.bots.inference import with_play_inference
from trainer.bots.knowledge import knowledge_of, public_play, situation_of
from trainer.bots.playout import POLICIES, SearchResult, pimc_values
from trainer.bots.signing import SignPolicy, choose_policy
from trainer.bots.tactics import choose_card
from trainer.bots.worlds import Holding, Knowledge
from trainer.rules.actions import Action, Phase
from trainer.rules.cards import STRENGTH, Card
from trainer.rules.views import PlayerView
from trainer.signals.table import Vigilance

SEARCH = "search: best mean score over sampled worlds"

ANNOUNCE_FIGURES = False
"""Whether the search bot tells its figures aloud after its aces sign (relative announcements,
``announce=`` option). Measured in docs/bots.md ("Relative announcements")."""


class SearchBot:
    """PIMC search; see the module docstring."""

    name = "search"

    def __init__(
        self,
        worlds: int = 64,
        max_ms: float | None = 60.0,
        rollout: str = "greedy",
        signs: bool = True,
        policy: SignPolicy | None = None,
        vigilance: float | None = None,
        trust: float | None = None,
        discreet: bool | None = None,
        sign_level: int | None = None,
        lie_rate: float = 0.0,
        announce: bool | None = None,
        infer: float = 0.0,
        clock: Callable[[], float] = time.process_time,
    ) -> None:
        if rollout not in POLICIES:
            raise BotError(f"unknown rollout policy {rollout!r}: choose one of {', '.join(POLICIES)}")
        if not isinstance(worlds, int) or worlds < 1:
            raise BotError(f"worlds must be a positive integer, got {worlds!r}")
        if not 0.0 <= float(infer) <= 1.0:
            raise BotError(f"infer is the chance to keep what the play says (0..1), got {infer!r}")
        self.worlds = worlds
        self.infer = float(infer)
        self.max_seconds = None if max_ms is None else float(max_ms) / 1000.0
        self.rollout = POLICIES[rollout]
        self._policy_fixed = any(x is not None for x in (policy, vigilance, discreet, sign_level))
        if policy is None:
            policy = choose_policy(Vigilance(float(vigilance))) if vigilance is not None else SignPolicy(discreet=True)
        if discreet is not None or sign_level is not None:
            policy = SignPolicy(
                max_level=policy.max_level if sign_level is None else int(sign_level),
                discreet=policy.discreet if discreet is None else bool(discreet),
                misere=policy.misere, mordienne=policy.mordienne, announce_figures=policy.announce_figures,
            )
        self.announce = ANNOUNCE_FIGURES if announce is None else bool(announce)
        self.policy = policy = replace(policy, announce_figures=self.announce)
        self.signs_enabled = signs
        self.trust_option = trust
        self.trust = 1.0 if trust is None else float(trust)
        self.clock = clock
        self._advisor = HeuristicBot(policy=policy, signs=signs, lie_rate=lie_rate)
        self.partner_policy: SignPolicy | None = None
        self.last_rule = ""
        self.last_search: SearchResult | None = None
        self.reliability: SignReliability | None = None

    def hears_through(self, reliability: SignReliability) -> None:
        """The partner's signs reach this bot through a camera read with these figures."""
        self.reliability = reliability
        self._advisor.hears_through(reliability)

    def at_table(self, vigilance: Vigilance) -> None:
        """The table's vigilance, before anyone is seated: choose what to sign for it (unless the
        policy was given as an option)."""
        if not self._policy_fixed:
            self.policy = replace(choose_policy(vigilance), announce_figures=self.announce)
            self._advisor.policy = self.policy

    def seated(self, seat: int, partner_policy: SignPolicy | None, lying_allowed: bool = False) -> None:
        self.partner_policy = partner_policy
        self._advisor.seated(seat, partner_policy, lying_allowed)
        if self.trust_option is None:
            # At a table with lies, a sign is believed four times in five.
            self.trust = 0.8 if lying_allowed else 1.0

    # -- decisions --------------------------------------------------------------------------

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        require_turn(view)
        if view.phase is not Phase.PLAY:
            action = self._advisor.choose(view, rng)
            self.last_rule = self._advisor.last_rule
            return action
        return self._play(view, rng)

    def _play(self, view: PlayerView, rng: random.Random) -> Card:
        hand = view.hand
        # Cards of equal strength are the same choice: keep one of each.
        distinct: dict[int, int] = {}
        for c in hand:
            distinct.setdefault(STRENGTH[c.index], c.index)
        knowledge = self.knowledge(view)
        advice, _ = choose_card(situation_of(view, knowledge, trust=self.trust, reliability=self.reliability))
        if len(distinct) == 1:
            self.last_rule = "only one kind of card left"
            return Card.from_index(advice if STRENGTH[advice] in distinct else next(iter(distinct.values())))
        legal = list(distinct.values())
        if STRENGTH[advice] in distinct:
            legal[legal.index(distinct[STRENGTH[advice]])] = advice
        result = self._search(knowledge, view, legal, rng)
        self.last_search = result
        # The heuristic's card wins ties (and near-ties within sampling noise of one deal in 500).
        best = max(legal, key=lambda c: (result.values[c] + (0.002 if c == advice else 0.0), -c))
        self.last_rule = SEARCH
        return Card.from_index(best)

    def _search(self, knowledge: Knowledge, view: PlayerView, legal: list[int], rng: random.Random) -> SearchResult:
        """A value per legal card (the best is played): PIMC's mean team score over the worlds."""
        return pimc_values(
            knowledge, public_play(view), legal, view.ruleset.team_of, rng,
            worlds=self.worlds, max_seconds=self.max_seconds, policy=self.rollout, clock=self.clock,
        )

    def knowledge(self, view: PlayerView) -> Knowledge:
        """What the seat knows of the hidden hands (the worlds it samples from): the signs, and what
        the play says (:mod:`trainer.bots.inference`, kept with chance ``infer`` per world)."""
        signs = knowledge_of(view, partner_policy=self.partner_policy, trust=self.trust,
                             reliability=self.reliability)
        return with_play_inference(signs, view, self.infer)

    # -- signs ----------------------------------------------------------------------------------

    def signals(self, view: PlayerView, rng: random.Random) -> list[SignIntent]:
        return self._advisor.signals(view, rng)


class OracleBot(SearchBot):
    """The all-seeing bound: the same search on the one true world. The table shows it every hand
    (:meth:`reveal`) before each decision; its knowledge then requires each other seat to hold
    exactly its true cards, so every world it samples is the true one. It cheats: the arena accepts
    it (``aluette arena oracle heuristic``) to measure how far ``search`` is from perfect
    information; a table with a person refuses it, and the app and ``aluette play`` never offer it."""

    name = "oracle"
    sees_all = True

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._true: tuple[tuple[int, ...], ...] | None = None

    def reveal(self, hands: tuple[tuple[int, ...], ...]) -> None:
        self._true = hands

    def knowledge(self, view: PlayerView) -> Knowledge:
        if self._true is None or len(self._true) != view.players:
            raise BotError("the oracle plays only at a table that shows it every hand (the arena's Table)")
        seen = knowledge_of(view, partner_policy=None, trust=1.0)
        held = tuple(
            (s, Holding(required=frozenset(self._true[s]))) for s in range(view.players) if s != view.seat
        )
        return Knowledge(view.seat, seen.hand, seen.hand_sizes, seen.unseen, holdings=held)


class ISMCTSBot(SearchBot):
    """The search bot with information-set MCTS (:mod:`trainer.bots.ismcts`) in place of PIMC, at
    the same budget: ``max_ms`` of CPU time per card, ``worlds`` iterations at most (default 5000,
    so the time decides)."""

    name = "ismcts"

    def __init__(self, worlds: int = 5000, exploration: float = 0.7, **options: Any) -> None:
        super().__init__(worlds=worlds, **options)
        self.exploration = float(exploration)

    def _search(self, knowledge: Knowledge, view: PlayerView, legal: list[int], rng: random.Random) -> SearchResult:
        from trainer.bots.ismcts import ismcts_values

        return ismcts_values(
            knowledge, public_play(view), legal, view.ruleset.team_of, rng, iterations=self.worlds,
            max_seconds=self.max_seconds, exploration=self.exploration, policy=self.rollout, clock=self.clock,
        )
