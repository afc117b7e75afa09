"""Ruleset options and presets (RULES.md "Presets", "Other player counts")."""

from __future__ import annotations

import pytest

from trainer.rules.errors import RulesetError
from trainer.rules.ruleset import (
    PRESETS,
    AnnouncedMordienne,
    ChantReceivers,
    GameEnd,
    GivingUp,
    LeadAfterPourri,
    Players,
    Ruleset,
)


def test_presets_match_the_rules_table():
    """RULES.md "Presets": each row of the table, option by option."""
    vendee, pagat, english = (Ruleset.preset(n) for n in ("vendee", "pagat", "english"))
    assert Ruleset() == vendee
    assert (vendee.chant_receivers, vendee.lead_after_pourri, vendee.game_end, vendee.giving_up,
            vendee.announced_mordienne) == (
        ChantReceivers.LEFT_OPPONENT_AND_DEALERS_PARTNER, LeadAfterPourri.LEADER,
        GameEnd.FIRST_TO_POINTS, GivingUp.OPPONENTS_SCORE, AnnouncedMordienne.ACCEPT_OR_DECLINE)
    assert (pagat.chant_receivers, pagat.lead_after_pourri, pagat.game_end, pagat.giving_up,
            pagat.announced_mordienne) == (
        ChantReceivers.LEFT_OPPONENT_AND_DEALER, LeadAfterPourri.LEADER, GameEnd.FIXED_DEALS,
        GivingUp.ACCEPT_OR_REFUSE, AnnouncedMordienne.EXTENDS_TO_TEN)
    assert (english.chant_receivers, english.lead_after_pourri, english.game_end, english.giving_up,
            english.announced_mordienne) == (
        ChantReceivers.LEFT_OPPONENT_AND_DEALER, LeadAfterPourri.SPOILER, GameEnd.FIXED_DEALS,
        GivingUp.OPPONENTS_SCORE, AnnouncedMordienne.OFF)
    for preset in (vendee, pagat, english):
        # RULES.md "Mordienne": a spoiled trick inside the run breaks it by default.
        assert preset.pourri_breaks_mordienne_run is True
        assert (preset.target_points, preset.deals, preset.extended_points) == (5, 5, 10)


def test_unknown_preset_names_the_choices():
    with pytest.raises(RulesetError, match="vendee, pagat, english") as error:
        Ruleset.preset("belote")
    assert "belote" in str(error.value)
    assert isinstance(error.value, ValueError)


def test_preset_is_case_insensitive_and_accepts_changes():
    ruleset = Ruleset.preset("PAGAT", players=Players.THREE)
    assert ruleset.players is Players.THREE and ruleset.game_end is GameEnd.FIXED_DEALS


def test_bad_option_values_are_rejected():
    with pytest.raises(RulesetError, match="lead_after_pourri"):
        Ruleset(lead_after_pourri="spoiler")
    with pytest.raises(RulesetError, match="target_points"):
        Ruleset(target_points=0)
    with pytest.raises(RulesetError, match="target_points"):
        Ruleset(target_points=True)
    with pytest.raises(RulesetError, match="unknown ruleset option"):
        Ruleset.preset("vendee", trumps=True)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_ruleset_json_round_trip(name):
    ruleset = Ruleset.preset(name, players=Players.SIX)
    assert Ruleset.from_json(ruleset.to_json()) == ruleset


def test_tables_for_three_four_and_six_players():
    """RULES.md "A deal" 1-2 and "Other player counts"."""
    four, three, six = Ruleset(), Ruleset(players=Players.THREE), Ruleset(players=Players.SIX)
    assert (four.hand_size, four.talon_size, four.tricks_per_deal, four.team_count) == (9, 12, 9, 2)
    assert (three.hand_size, three.talon_size, three.tricks_per_deal, three.team_count) == (12, 12, 12, 3)
    assert (six.hand_size, six.talon_size, six.tricks_per_deal, six.team_count) == (8, 0, 8, 3)
    assert four.partners(0) == (2,) and four.partners(3) == (1,)
    assert six.partners(1) == (4,) and six.team_of(5) == 2
    assert three.partners(1) == () and [three.team_of(s) for s in range(3)] == [0, 1, 2]
    assert not six.chant_possible and three.chant_possible and four.chant_possible
    assert four.declarations_possible and not three.declarations_possible


def test_chant_receivers_option():
    """RULES.md "A deal" 3: left opponent + dealer's partner, or left opponent + dealer."""
    assert Ruleset.preset("vendee").chant_receivers_for(0) == (1, 2)
    assert Ruleset.preset("pagat").chant_receivers_for(0) == (1, 0)
    assert Ruleset.preset("vendee").chant_receivers_for(3) == (0, 1)
    assert Ruleset.preset("pagat").chant_receivers_for(3) == (0, 3)


def test_bad_values_name_the_option_and_the_choices():
    """A wrong enum value lists the choices; a wrong plain value says the type and nothing more."""
    with pytest.raises(RulesetError) as error:
        Ruleset(players=4)
    assert str(error.value) == "ruleset players must be a Players, got 4: choose one of [3, 4, 6]"
    with pytest.raises(RulesetError) as error:
        Ruleset(chant_allowed="yes")
    assert str(error.value) == "ruleset chant_allowed must be a bool, got 'yes'"
    with pytest.raises(RulesetError, match="unknown ruleset preset 5: choose one of vendee"):
        Ruleset.preset(5)


def test_bad_json_is_refused_with_what_is_wrong():
    """Saved games carry their ruleset as JSON: each kind of damage gets its own message."""
    with pytest.raises(RulesetError) as error:
        Ruleset.from_json(["vendee"])
    assert str(error.value) == "a ruleset must be a JSON object, got list"
    with pytest.raises(RulesetError) as error:
        Ruleset.from_json({"players": 4, "trumps": True})
    assert str(error.value).startswith("unknown ruleset option(s) ['trumps']: known are ['announced_mordienne',")
    with pytest.raises(RulesetError) as error:
        Ruleset.from_json({"players": 5})
    assert str(error.value) == "ruleset players 5 is not one of [3, 4, 6]"
    # Plain values are not converted: "no" is not a bool and "5" is not a number of points.
    with pytest.raises(RulesetError, match="chant_allowed must be a bool"):
        Ruleset.from_json({"chant_allowed": "no"})
    with pytest.raises(RulesetError, match="target_points must be a positive integer"):
        Ruleset.from_json({"target_points": "5"})
    assert Ruleset.from_json({"players": 3, "name": "custom"}) == Ruleset(players=Players.THREE, name="custom")


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", list(Players))
def test_playout_flags_are_the_ones_the_games_own_deal_is_played_with(name, players):
    """Ruleset.playout_flags is the one translation of the rules into FastDeal's options: the
    game's deal, the replay contract and the bots' playouts all take it."""
    from trainer.rules.actions import Phase
    from trainer.rules.fastdeal import FastDeal
    from trainer.rules.game import Game

    ruleset = Ruleset.preset(name, players=players)
    flags = ruleset.playout_flags()
    assert flags.spoiler_leads == (ruleset.lead_after_pourri is LeadAfterPourri.SPOILER)
    assert flags.pourri_breaks_run == ruleset.pourri_breaks_mordienne_run
    assert flags.total_tricks == {3: 12, 4: 9, 6: 8}[players.value] == ruleset.hand_size
    game = Game.new(ruleset, 5)
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[-1] if game.phase is Phase.CHANT_VOTE else game.legal_actions()[0])
    fast = game.fast_deal
    assert (fast.spoiler_leads, fast.pourri_breaks_run, fast.total_tricks) == (
        flags.spoiler_leads, flags.pourri_breaks_run, flags.total_tricks)
    dealt = FastDeal.from_deck(list(range(48)), players.value)
    assert {len(h) for h in dealt.hands} == {ruleset.hand_size}


def test_playout_flags_differ_where_the_presets_do():
    assert Ruleset.preset("english").playout_flags().spoiler_leads
    assert not Ruleset.preset("pagat").playout_flags().spoiler_leads
    assert not Ruleset.preset("vendee", pourri_breaks_mordienne_run=False).playout_flags().pourri_breaks_run
