"""GameSession's pauses: stepping the bots one action at a time, stopping at closed tricks, makes the
same game as letting them play on at once; saves with "next" inputs resume exactly, and version-1
saves (no pauses) still resume."""

from __future__ import annotations

from trainer.bots.table import Table
from trainer.rules.actions import Declaration, Declare, parse_action
from trainer.rules.ruleset import Ruleset
from trainer.signals.conventions import Convention
from trainer.signals.signs import Sign, Signal
from trainer.signals.table import honest_signals
from trainer.ui.game_session import BOT_OPTIONS, HUMAN_SEAT, GameSession, SessionError


def _whole_game(seed: int, *, partner: str = "heuristic") -> GameSession:
    from trainer.ui.game_session import Seating

    session = GameSession.start("vendee", "classic", seed, Seating(partner, "heuristic"))
    signed = set()
    while not session.table.is_over:
        if session.paused:
            session.next()
            continue
        view = session.table.view(HUMAN_SEAT)
        if view.deal_number not in signed:
            signed.add(view.deal_number)
            for signal in honest_signals(view.hand)[:1]:
                session.sign(session.table.made(signal))
        actions = [a for a in view.legal_actions if not (isinstance(a,
                                                                    Declare) and a.declaration is not Declaration.PASS)]
        session.act(actions[-1])
    return session


def test_pauses_do_not_change_the_bots_decisions():
    for seed, partner in ((3, "heuristic"), (4, "search")):
        session = _whole_game(seed, partner=partner)
        assert any("next" in item for item in session.inputs), "the game never paused"
        table = Table.create(["human", "heuristic", partner, "heuristic"], bot_options=BOT_OPTIONS,
                             ruleset=Ruleset.preset("vendee"), seed=seed, convention=Convention.named("classic"))
        table.step()
        from trainer.signals.signs import Sign, Signal

        for item in session.inputs:
            if "act" in item:
                table.submit(HUMAN_SEAT, parse_action(item["act"]))
                table.step()
            elif "sign" in item:
                table.submit_sign(HUMAN_SEAT, table.made(Signal(Sign(item["sign"]), item["count"])))
        assert table.game.state_key() == session.table.game.state_key()
        # Every bot action was recorded with the bot's seat and rule.
        bot_actions = len(table.game.history) - sum("act" in item for item in session.inputs)
        assert len(session.moves) <= bot_actions and len(session.moves) > 100


def test_saves_resume_exactly_and_version_1_still_resumes():
    session = _whole_game(5)
    data = session.to_json()
    assert data["version"] == 3
    assert GameSession.from_json(data).table.game.state_key() == session.table.game.state_key()
    # A version-2 save: a deal's end paused only when a bot played next, so the "next" of a review
    # after which the person plays first is absent; the review is continued by the next input.
    replay, v2 = GameSession.from_json(dict(data, inputs=[])), []
    for item in data["inputs"]:
        if "next" in item and replay.reviewing and replay.table.game.to_move == HUMAN_SEAT:
            replay.next()
            continue
        v2.append(item)
        if "next" in item:
            replay.next()
        elif "act" in item:
            replay.act(parse_action(item["act"]))
        else:
            replay.sign(replay.table.made(Signal(Sign(item["sign"]), item.get("count", 1))))
    assert len(v2) < len(data["inputs"]), "no deal ended with the person to play first"
    assert GameSession.from_json(dict(data, version=2,
                                      inputs=v2)).table.game.state_key() == session.table.game.state_key()
    # A version-1 save: the same inputs without the "next" items, signs made while it was the
    # person's turn (the game above signs only then).
    old = dict(data, version=1, inputs=[item for item in data["inputs"] if "next" not in item])
    assert GameSession.from_json(old).table.game.state_key() == session.table.game.state_key()


def test_acting_during_a_pause_is_refused_with_the_reason():
    session = GameSession.start("vendee", "classic", 1)
    for _ in range(200):
        if session.paused:
            break
        view = session.table.view(HUMAN_SEAT)
        session.act(view.legal_actions[0] if not isinstance(view.legal_actions[0], Declare)
                    else Declare(Declaration.PASS))
    assert session.paused
    try:
        session.act(session.table.view(HUMAN_SEAT).hand[0])
    except SessionError as error:
        assert "click next" in str(error)
    else:
        raise AssertionError("an action during a pause was accepted")


def test_the_session_pauses_exactly_when_a_trick_closes_or_a_deal_ends():
    """The pause is read from the table's events; checked here against the game's own counts."""
    session = GameSession.start("pagat", "classic", 9)
    game = session.table.game
    paused = 0
    while not session.table.is_over:
        if session.paused:
            session.next()
            continue
        before = (game.deal_number, len(game.tricks), len(game.results))
        session.act(session.table.view(HUMAN_SEAT).legal_actions[0])
        closed = len(game.results) != before[2] or (game.deal_number == before[0] and len(game.tricks) != before[1])
        if session.paused:
            paused += 1
            assert closed, "paused though no trick closed and no deal ended"
        elif not session.table.is_over and closed:
            # A closed trick with the person to play next needs no pause: nobody plays before them.
            assert session.table.game.to_move == HUMAN_SEAT
    assert paused > 5


def _closed_from_the_state(game):
    """The Play page's former reading of the closed trick from the game's counts: the oracle."""
    if game.is_over and game.results:
        result = game.results[-1]
        return (result.tricks[-1] if result.tricks else None), result
    if game.current_trick:
        return None
    if game.tricks:
        return game.tricks[-1], None
    if game.results:
        result = game.results[-1]
        if game.deal_number == result.deal + 1:
            return (result.tricks[-1] if result.tricks else None), result
    return None


def test_the_closed_trick_read_from_the_events_is_the_one_the_state_shows():
    """table_talk.closed_trick (the Play page's trick and deal result on the table) agrees with the
    game's state at every moment the person sees, through played, given-up and declined deals."""
    import random

    from trainer.rules.game import DealEnd
    from trainer.ui.table_events import closed_trick

    unplayed = 0
    for preset, seed in (("vendee", 2), ("pagat", 8)):
        session = GameSession.start(preset, "classic", seed)
        rng = random.Random(seed)
        while True:
            game = session.table.game
            assert closed_trick(session.table.events) == _closed_from_the_state(game)
            if game.is_over:
                break
            if session.paused:
                session.next()
            else:
                session.act(rng.choice(session.table.view(HUMAN_SEAT).legal_actions))
        unplayed += sum(r.end is not DealEnd.PLAYED for r in game.results)
    assert unplayed, "the games must include a deal given up or declined"


def test_a_camera_sign_held_too_briefly_is_not_sent_and_a_saved_one_still_replays():
    # A false read while talking that happens to match the hand would pass the truth check and
    # tell the partner a card the person never chose to tell: a camera sign must be held
    # CAMERA_MIN_HOLD_S. A button's sign has no hold; a saved game replays what was sent then.
    import pytest

    from trainer.rules.cards import ACES
    from trainer.signals.gestures import Gesture, GestureEvent
    from trainer.signals.table import CAMERA_MIN_HOLD_S, SignalError
    from trainer.ui.game_session import made_from_input, sign_input

    seed = next(s for s in range(500) if sum(
        c in ACES for c in GameSession.start("vendee", "classic", s).table.view(HUMAN_SEAT).hand) == 1)
    session = GameSession.start("vendee", "classic", seed)
    convention = Convention.named("classic")
    brief = convention.read(GestureEvent(Gesture.MOUTH_OPEN, 2.0, 2.0 + CAMERA_MIN_HOLD_S - 0.1, confidence=0.9))

    def mine(s: GameSession) -> int:
        return sum(t.event.seat == HUMAN_SEAT for t in s.table.history)

    with pytest.raises(SignalError, match="hold a sign"):
        session.sign(brief)
    assert not session.inputs and mine(session) == 0  # nothing sent, nothing saved
    held = convention.read(GestureEvent(Gesture.MOUTH_OPEN, 4.0, 4.0 + CAMERA_MIN_HOLD_S, confidence=0.9))
    session.sign(held)
    assert mine(session) == 1 and session.inputs[-1]["end"] == 4.0 + CAMERA_MIN_HOLD_S
    # An older save holding a brief camera sign (sent before the rule) still resumes.
    data = session.to_json()
    data["inputs"][-1] = {**sign_input(brief), **{k: v for k, v in data["inputs"][-1].items()
                                                  if k not in sign_input(held)}}
    assert made_from_input(data["inputs"][-1]).end - made_from_input(data["inputs"][-1]).start < CAMERA_MIN_HOLD_S
    again = GameSession.from_json(data)
    assert mine(again) == 1
