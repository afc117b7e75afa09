"""Relative announcements (RULES.md, Signs: au-dessus / au-dessous ... chained with après)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.rules.cards import Card
from trainer.signals.relative import (
    Announcement,
    AnnouncementError,
    Step,
    announce,
    announce_hand,
    base_level,
    format_message,
    parse,
    parse_one,
    resolve,
)
from trainer.signals.signs import Sign


def test_rules_example_ace_king_deux_de_chene() -> None:
    # RULES.md: ace (tongue flick), "en dessous" (king), "au-dessus de là-dessus" (Deux de chêne).
    message = parse("en dessous, au-dessus de là-dessus")
    levels = resolve(base_level(Sign.AS), message)
    assert levels == (Card.ROI_BATONS.level, Card.DEUX_DE_CHENE.level)


def test_apres_counts_from_the_previous_announcement() -> None:
    # From Monsieur+Madame (base: Madame, level 2): "au-dessous" = Borgne (3), "après au-dessous"
    # = Vache (4), "après en dessous de là-dessous" = Petit Neuf (6).
    levels = resolve(base_level(Sign.MONSIEUR_ET_MADAME),
                     parse("au-dessous; après au-dessous; après en dessous de là-dessous"))
    assert levels == (Card.BORGNE.level, Card.VACHE.level, Card.PETIT_NEUF.level)


def test_spelling_variants_are_read() -> None:
    assert parse_one("EN-DESSOUS") == Announcement(Step.AU_DESSOUS)
    assert parse_one("apres au dessus de la dessus") == Announcement(Step.AU_DESSUS_DE_LA_DESSUS, after=True)
    assert parse_one("  au-dessous ") == Announcement(Step.AU_DESSOUS)


@pytest.mark.parametrize("bad", ["", "au-delà", "après", "au-dessus au-dessus"])
def test_unreadable_messages_are_refused_with_a_hint(bad: str) -> None:
    with pytest.raises(AnnouncementError, match="au-dessus|empty"):
        parse(bad)


def test_off_the_scale_is_refused() -> None:
    with pytest.raises(AnnouncementError, match="off the scale"):
        resolve(base_level(Sign.MONSIEUR), parse("au-dessus"))
    with pytest.raises(AnnouncementError, match="names no card"):
        base_level(Sign.MISERE)


announcements = st.lists(st.builds(Announcement, st.sampled_from(list(Step)), st.booleans()), min_size=1, max_size=5)


@given(announcements)
def test_format_then_parse_round_trips(items: list[Announcement]) -> None:
    assert parse(format_message(items)) == tuple(items)


@given(st.integers(1, 19), st.lists(st.integers(1, 19), max_size=6))
def test_announce_then_resolve_gives_the_levels_it_could_tell(base: int, levels: list[int]) -> None:
    said = announce(base, levels)
    told = resolve(base, said)
    # Every told level was asked for, in the asked order, and none is the sign's own level.
    assert all(level in levels and level != base for level in told)
    assert len(set(told)) == len(told)
    remaining = iter(levels)
    assert all(level in remaining for level in told)  # told in the asked order (a subsequence)
    # Every asked level within two of the base is told.
    assert {lv for lv in levels if 0 < abs(lv - base) <= 2} <= set(told)


def test_announce_hand_reaches_further_cards_with_apres() -> None:
    hand = (Card.AS_DENIERS, Card.ROI_EPEES, Card.VALET_BATONS, Card.DEUX_DE_CHENE, Card.PETIT_NEUF,
            Card.QUATRE_DENIERS)
    said = announce_hand(Sign.AS, hand)
    levels = set(resolve(base_level(Sign.AS), said))
    assert levels == {Card.ROI_EPEES.level, Card.VALET_BATONS.level, Card.DEUX_DE_CHENE.level, Card.PETIT_NEUF.level}
    assert any(a.after for a in said)


# -- the edges, message by message (mutmut survivors, docs/mutation.md) --------------------------


def test_steps_move_one_or_two_levels_and_nothing_else() -> None:
    assert [Step.for_delta(d) for d in (1, 2, -1, -2)] == [
        Step.AU_DESSUS, Step.AU_DESSUS_DE_LA_DESSUS, Step.AU_DESSOUS, Step.EN_DESSOUS_DE_LA_DESSOUS,
    ]
    for delta in (3, 0, -3):
        with pytest.raises(AnnouncementError) as error:
            Step.for_delta(delta)
        assert str(error.value) == f"no single announcement moves {delta:+d} levels: steps are -2, -1, +1 or +2"


def test_unreadable_text_gets_the_list_of_what_can_be_said() -> None:
    with pytest.raises(AnnouncementError) as error:
        parse_one("au-delà")
    assert str(error.value) == (
        "cannot read the announcement 'au-delà': say one of au-dessous, au-dessus, au-dessus de là-dessus, "
        "en dessous de là-dessous, optionally after 'après'"
    )
    with pytest.raises(AnnouncementError) as error:
        parse(" ;, ")
    assert str(error.value) == "an empty message announces nothing: write e.g. 'au-dessus, après au-dessous'"


def test_levels_reach_both_ends_of_the_scale_and_no_further() -> None:
    two_above, two_below = Announcement(Step.AU_DESSUS_DE_LA_DESSUS), Announcement(Step.EN_DESSOUS_DE_LA_DESSOUS)
    assert resolve(3, [two_above]) == (1,) and resolve(17, [two_below]) == (19,)
    with pytest.raises(AnnouncementError,
                       match="'au-dessus de là-dessus' from level 2 leads to level 0, off the scale 1..19"):
        resolve(2, [two_above])
    with pytest.raises(AnnouncementError, match="leads to level 20, off the scale"):
        resolve(18, [two_below])
    # A first 'après' counts from the sign.
    assert resolve(5, [Announcement(Step.AU_DESSUS, after=True)]) == (4,)


@pytest.mark.parametrize("bad", [0, 20, "3", None])
def test_levels_that_do_not_exist_are_refused_naming_which(bad) -> None:
    with pytest.raises(AnnouncementError) as error:
        resolve(bad, [])
    assert str(error.value) == f"base level {bad!r} does not exist: levels run from 1 to 19"
    with pytest.raises(AnnouncementError) as error:
        announce(bad, [5])
    assert str(error.value) == f"base level {bad!r} does not exist: levels run from 1 to 19"
    with pytest.raises(AnnouncementError) as error:
        announce(9, [10, bad])
    assert str(error.value) == f"announced level {bad!r} does not exist: levels run from 1 to 19"


def test_apres_reaches_two_levels_from_the_previous_and_not_three() -> None:
    two_below = Announcement(Step.EN_DESSOUS_DE_LA_DESSOUS)
    assert announce(9, [11, 14]) == (two_below,)  # 14 is 5 from the sign and 3 from 11: left out
    assert announce(9, [11, 13]) == (two_below, Announcement(Step.EN_DESSOUS_DE_LA_DESSOUS, after=True))


def test_announce_hand_tells_neither_the_signs_own_cards_nor_the_bigailles() -> None:
    """After Monsieur + Madame, Monsieur is not told again; after an ace, the 9 of swords (level
    13, below the figures) is not told."""
    mm = announce_hand(Sign.MONSIEUR_ET_MADAME, (Card.MONSIEUR, Card.MADAME, Card.BORGNE))
    assert mm == (Announcement(Step.AU_DESSOUS),)
    ace = announce_hand(Sign.AS, (Card.AS_DENIERS, Card.parse("CD"), Card.parse("9E")))
    assert ace == (Announcement(Step.EN_DESSOUS_DE_LA_DESSOUS),)
