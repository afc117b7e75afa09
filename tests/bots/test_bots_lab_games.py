"""The per-game logs behind docs/bots.md's issue-14 tables (``trainer.lab.bots_games`` and
``bots_report``): a run cut short resumes to the very games of one uninterrupted run, and the
paired statistics (share of the oracle's edge, budget ranking) say what their definitions say."""

from __future__ import annotations

import json

import pytest

from trainer.lab import bots_games
from trainer.lab.bots_games import edge_share, paired, paired_margin, play, read_lines
from trainer.lab.bots_report import ranking


def _line(seed: int, outcome: int, margins=(1, -1, 1)) -> dict:
    return {"team_a": "x", "team_b": "heuristic", "channel": "perfect", "vigilance": 0.25,
            "index": seed - 1, "seed": seed, "outcome": outcome, "margin_a": sum(margins),
            "deal_margins": list(margins), "times_a_ms": [1.0]}


def _strip_times(lines: list[dict]) -> list[dict]:
    return [{k: v for k, v in line.items() if k != "times_a_ms"} for line in lines]


def test_a_run_cut_short_resumes_to_the_games_of_one_run(tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    play("random", "heuristic", games=5, seed=7, out=whole, also=[("heuristic", "random")])
    play("random", "heuristic", games=2, seed=7, out=cut, also=[("heuristic", "random")])
    assert len(read_lines(cut)) == 4
    play("random", "heuristic", games=5, seed=7, out=cut, also=[("heuristic", "random")])
    a, b = read_lines(whole), read_lines(cut)
    assert len(a) == 10
    assert _strip_times(a) == _strip_times(b)
    # Interleaved seed by seed: every match has played the same seeds at any cut.
    assert [line["seed"] for line in a] == [7, 7, 8, 8, 9, 9, 10, 10, 11, 11]
    # A resumed run with nothing left to play adds nothing.
    play("random", "heuristic", games=5, seed=7, out=cut, also=[("heuristic", "random")])
    assert len(read_lines(cut)) == 10


def test_a_log_of_another_master_seed_is_not_taken_for_games_already_played(tmp_path):
    out = tmp_path / "log.jsonl"
    play("random", "heuristic", games=2, seed=1, out=out)
    play("random", "heuristic", games=2, seed=100, out=out)
    assert sorted(line["seed"] for line in read_lines(out)) == [1, 2, 100, 101]


def test_edge_share_is_the_ratio_of_edges_with_a_seed_resampled_interval():
    # Bound: 80 wins of 100 (edge 0.30); bot: the same games but 6 of the bound's wins lost (0.24).
    bound = [_line(s, 1 if s <= 80 else -1) for s in range(1, 101)]
    bot = [_line(s, 1 if 6 < s <= 80 else -1) for s in range(1, 101)]
    share = edge_share(bound, bot, resamples=2000)
    assert share["games"] == 100
    assert share["share"] == pytest.approx(0.24 / 0.30)
    assert share["edge_bound"] == pytest.approx(0.30)
    lo, hi = share["ci95"]
    assert lo < share["share"] < hi
    # Paired, the bot only ever loses games the bound won: the share's interval stays under 1,
    # and the fixed-bound lower end is 1 - (upper end of the paired difference) / edge.
    assert hi <= 1.0
    assert share["low_fixed_bound"] == pytest.approx(1 - paired(bound, bot)["ci95"][1] / 0.30)
    # Same games both ways: the whole edge, exactly.
    same = edge_share(bound, bound, resamples=200)
    assert same["share"] == pytest.approx(1.0) and same["ci95"] == pytest.approx([1.0, 1.0])


def test_edge_share_counts_only_the_seeds_both_played():
    bound = [_line(s, 1) for s in range(1, 11)]
    bot = [_line(s, 1 if s % 2 else -1) for s in range(1, 21)]
    assert edge_share(bound, bot, resamples=100)["games"] == 10
    assert edge_share(bound, bot, resamples=100)["share"] == pytest.approx(0.0)


def test_paired_margin_is_per_seed_mean_deal_margin_difference():
    x = [_line(1, 1, (2, 2)), _line(2, 1, (1, 1, 1)), _line(3, -1, (0, -1))]
    y = [_line(1, 1, (1, 1)), _line(2, -1, (1, -1, -3)), _line(3, -1, (-1, -1))]
    m = paired_margin(x, y)
    assert m["games"] == 3
    assert m["diff"] == pytest.approx(((2 - 1) + (1 - (-1)) + (-0.5 - (-1))) / 3)
    assert m["ci95"][0] < m["diff"] < m["ci95"][1]


def _budget(ms: int, lines: list[dict]) -> tuple[tuple, list[dict]]:
    team = f"search:worlds=100000,max_ms={ms}"
    return (team, "heuristic", "perfect", 0.25), [dict(line, team_a=team) for line in lines]


def test_ranking_ranks_budgets_only_when_the_paired_interval_says_so():
    weak = [_line(s, 1 if s % 2 else -1, (1, -1)) for s in range(1, 201)]
    strong = [_line(s, 1, (1, 1)) for s in range(1, 201)]
    table = ranking(dict([_budget(10, weak), _budget(30, strong), _budget(100, strong)]))
    rows = {line.split("|")[1].strip(): line for line in table.splitlines()[2:]}
    assert "yes, more time wins more" in rows["30 vs 10 ms"]
    assert "no: cannot tell apart" in rows["100 vs 30 ms"]
    assert "yes, more time wins more" in rows["100 vs 10 ms"]
    worse = ranking(dict([_budget(10, strong), _budget(30, weak)]))
    assert "yes, more time wins less" in worse


def test_summary_over_the_committed_oracle_log_is_consistent(tmp_path):
    # The committed logs (data/bots_games) read back: every line a finished game of the oracle,
    # seeds contiguous from 1, and the report's share equals the ratio of the two win rates.
    from pathlib import Path

    from trainer.lab.bots_report import oracle_table

    folder = Path(__file__).resolve().parents[2] / "data" / "bots_games"
    lines = read_lines(folder / "oracle_vs_heuristic.jsonl")
    assert lines and all(line["team_a"] == "oracle" for line in lines)
    assert sorted(line["seed"] for line in lines) == list(range(1, len(lines) + 1))
    _text, figures = oracle_table(folder)
    o, s = figures["oracle"]["win_rate_a"], figures["search"]["win_rate_a"]
    assert figures["edge_share"] == pytest.approx((s - 0.5) / (o - 0.5))
    assert figures["edge_share_ci95"]["ci95"][0] <= figures["edge_share"] <= figures["edge_share_ci95"]["ci95"][1]
    json.dumps(figures)  # the report's JSON output holds plain values
    assert bots_games.summary(lines)["games"] == len(lines)


def test_a_run_started_at_an_even_offset_plays_the_same_games():
    # What lets one long log be played in two parts and merged by seed (docs/bots.md: the oracle's
    # seeds 751..1000 ran as --seed 751): a game depends on its seed and on the parity of its index
    # (which side sits first), and master + index gives the seed.
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        whole, part = Path(d) / "whole.jsonl", Path(d) / "part.jsonl"
        play("heuristic", "random", games=6, seed=1, out=whole)
        play("heuristic", "random", games=2, seed=5, out=part)
        tail = [dict(line, index=None) for line in _strip_times(read_lines(whole))[4:]]
        assert tail == [dict(line, index=None) for line in _strip_times(read_lines(part))]
        odd = Path(d) / "odd.jsonl"
        play("heuristic", "random", games=2, seed=4, out=odd)
        # An odd offset swaps the sides: not the same games.
        assert [x["outcome"] for x in read_lines(odd)] != [x["outcome"] for x in _strip_times(read_lines(whole))[3:5]] \
            or [x["deal_margins"] for x in read_lines(odd)] != [x["deal_margins"] for x in read_lines(whole)[3:5]]


def test_parts_merged_by_seed_are_the_log_of_one_run(tmp_path):
    whole, main = tmp_path / "whole.jsonl", tmp_path / "main.jsonl"
    part_a, part_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    play("heuristic", "random", games=8, seed=1, out=whole)
    play("heuristic", "random", games=3, seed=1, out=main)   # cut short at seed 3 ...
    play("heuristic", "random", games=2, seed=5, out=part_b)  # ... seeds 5..6 and 7..8 in parts,
    play("heuristic", "random", games=2, seed=7, out=part_a)  # the later one merged first
    play("heuristic", "random", games=1, seed=3, out=part_a)  # a seed both hold is kept once
    assert bots_games.main(["--merge", str(part_a), str(part_b), "--out", str(main), "--seed", "1"]) == 0
    merged = read_lines(main)
    assert [x["seed"] for x in merged] == [1, 2, 3, 5, 6, 7, 8]
    by_seed = {x["seed"]: x for x in _strip_times(read_lines(whole))}
    assert _strip_times(merged) == [by_seed[s] for s in (1, 2, 3, 5, 6, 7, 8)]
    # The merged log resumes like one run's: only seed 4 is left to play.
    play("heuristic", "random", games=8, seed=1, out=main)
    assert _strip_times(sorted(read_lines(main), key=lambda x: x["seed"])) == _strip_times(read_lines(whole))


def test_a_part_at_an_odd_offset_is_refused_and_the_log_left_as_it_was(tmp_path, capsys):
    main, odd = tmp_path / "main.jsonl", tmp_path / "odd.jsonl"
    play("heuristic", "random", games=2, seed=1, out=main)
    before = main.read_text()
    play("heuristic", "random", games=1, seed=4, out=odd)
    with pytest.raises(SystemExit):
        bots_games.main(["--merge", str(odd), "--out", str(main), "--seed", "1"])
    err = capsys.readouterr().err
    assert "odd offset" in err and "replay that part with --seed 1 + an even number" in err
    assert main.read_text() == before


def test_signing_pays_only_where_an_interval_excludes_zero():
    from trainer.lab.bots_report import pays

    assert pays({"ci95": [0.51, 0.62], "points_margin_per_deal": [0.01, -0.01, 0.03]}) == "yes"
    assert pays({"ci95": [0.45, 0.56], "points_margin_per_deal": [0.05, 0.01, 0.09]}) == "yes"
    assert pays({"ci95": [0.45, 0.56], "points_margin_per_deal": [0.01, -0.02, 0.04]}) == "not shown"
    assert pays({"ci95": [0.38, 0.49], "points_margin_per_deal": [-0.01, -0.03, 0.01]}) == "no: it costs"
    assert pays({"ci95": [0.45, 0.52], "points_margin_per_deal": [-0.04, -0.06, -0.01]}) == "no: it costs"


def test_the_frontier_is_where_the_value_of_signing_crosses_zero():
    from trainer.lab.signal_frontier import channel_rows, frontier

    def games(channel: str, wins: int, n: int = 20) -> list[dict]:
        return [dict(_line(s, 1 if s <= wins else -1), team_a="heuristic:signs=true", channel=channel)
                for s in range(1, n + 1)]

    # Read share 1: +40 points at 0 false a minute, +20 at 1, -20 at 2 -> zero at 1.5 a minute.
    rows = channel_rows(games("perfect", 14) + games("1/1", 12) + games("1/2", 8) + games("0.5/0", 9))
    by = {r["channel"]: r for r in rows}
    assert by["1/1"]["win_rate_difference"] == pytest.approx(0.2)
    assert by["1/2"]["vs_perfect"]["difference"] == pytest.approx(2 * (8 - 14) / 20)
    front = {f["read"]: f for f in frontier(rows)}
    assert front[1.0]["break_even_false_per_min"] == pytest.approx(1.5)
    assert front[0.5]["break_even_false_per_min"] == 0.0  # already below zero without false reads
