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
    levels = resolve(base_level(Sign.MONSIEUR_ET_MADAME), parse("au-dessous; après au-dessous; après en dessous de là-dessous"))
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
    hand = (Card.AS_DENIERS, Card.ROI_EPEES, Card.VALET_BATONS, Card.DEUX_DE_CHENE, Card.PETIT_NEUF, Card.QUATRE_DENIERS)
    said = announce_hand(Sign.AS, hand)
    levels = set(resolve(base_level(Sign.AS), said))
    assert levels == {Card.ROI_EPEES.level, Card.VALET_BATONS.level, Card.DEUX_DE_CHENE.level, Card.PETIT_NEUF.level}
    assert any(a.after for a in said)
