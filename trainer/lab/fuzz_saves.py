"""Fuzz the app's saved games: resuming or replaying a mutated save gives a message (SaveError), a
working game, and never any other exception.

    nice .venv/bin/python -m trainer.lab.fuzz_saves --count 2000 --seed 1

A real save is made by playing a game through ``GameSession`` (the person's moves chosen from the
legal ones, the bots playing on), then mutated: a field removed, retyped or set to a hostile value
(huge or negative seeds, unknown bots or presets, deep nesting), inputs dropped, repeated,
reordered or rewritten character by character, the engine's ``game`` record changed the same way.
Each mutation is stored in a fresh database and resumed and replayed through
``trainer.ui.persistence`` exactly as the Play page does. A row that is not JSON at all is tried
too. Prints one JSON summary; ``tests/ui/test_ui_saves.py`` runs 300.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import resource
import sqlite3
import tempfile
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def real_save(seed: int = 3, moves: int = 12) -> dict:
    """A game played for ``moves`` of the person's decisions, as the app saves it."""
    from trainer.ui.game_session import HUMAN_SEAT, GameSession, Seating

    rng = random.Random(seed)
    session = GameSession.start("vendee", "classic", seed, Seating("heuristic", "heuristic"))
    for _ in range(moves):
        view = session.table.view(HUMAN_SEAT)
        if session.table.is_over or not view.legal_actions:
            break
        session.act(rng.choice(view.legal_actions))
    return session.to_json()


HOSTILE: tuple[object, ...] = (
    None, True, 0, -1, 2 ** 64, 1.5, float("inf"), "", "x" * 300, [], {}, [[[[[]]]]], {"a": {"b": {}}},
    "vendee", "random", "search", "heuristic", "regional", "pass", "AD", "9Z", "\u0000", "🐄",
)


def _nested(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


def mutate(save: dict, rng: random.Random) -> object:
    data = copy.deepcopy(save)
    for _ in range(rng.randint(1, 3)):
        target = data if rng.random() < 0.6 or not isinstance(data.get("game"), dict) else data["game"]
        choice = rng.randrange(9)
        keys = list(target)
        if not keys:
            break
        key = rng.choice(keys)
        if choice == 0:
            del target[key]
        elif choice == 1:
            target[key] = rng.choice(HOSTILE)
        elif choice == 2 and isinstance(target.get("inputs"), list) and target["inputs"]:
            items = target["inputs"]
            n = rng.randrange(len(items))
            items[n] = rng.choice(
                [
                    rng.choice(HOSTILE),
                    {"act": rng.choice(HOSTILE)},
                    {"sign": "monsieur", "count": rng.choice(HOSTILE)},
                    {"sign": rng.choice(HOSTILE)},
                    {"act": "pass", "sign": "x"},
                ]
            )
        elif choice == 3 and isinstance(target.get("inputs"), list):
            rng.shuffle(target["inputs"])
        elif choice == 4 and isinstance(target.get("inputs"), list) and target["inputs"]:
            items = target["inputs"]
            target["inputs"] = items[: rng.randrange(len(items))] + items * rng.randint(0, 2)
        elif choice == 5 and isinstance(target.get("actions"), list) and target["actions"]:
            actions = target["actions"]
            n = rng.randrange(len(actions))
            text = str(actions[n])
            if text:
                at = rng.randrange(len(text))
                actions[n] = text[:at] + chr(rng.randrange(32, 0x250)) + text[at + 1:]
        elif choice == 6:
            target[key] = _nested(rng.choice([10, 200, 5000]))
        elif choice == 7 and isinstance(target.get("inputs"), list):
            for item in target["inputs"]:
                if isinstance(item, dict) and "act" in item and rng.random() < 0.3:
                    item["act"] = str(item["act"])[::-1]
        else:
            target[rng.choice(["extra", key])] = rng.choice(HOSTILE)
    return data


def run(count: int, seed: int) -> dict:
    import logging

    logging.disable(logging.CRITICAL)  # the unexpected-error log goes to the terminal; counted below
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Streamlit's "no runtime" warnings, outside an app
            return _run(count, seed)
    finally:
        logging.disable(logging.NOTSET)


def _run(count: int, seed: int) -> dict:
    import os

    from trainer.storage import Store
    from trainer.ui import persistence

    rng = random.Random(seed)
    save = real_save()
    outcomes = ("unstorable", "resumed", "refused", "replayed", "replay_refused", "unexpected", "uncaught")
    counts = dict.fromkeys(outcomes, 0)
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="aluette-saves-") as folder:
        os.environ["ALUETTE_HOME"] = folder
        path = Path(folder) / "aluette.sqlite3"
        with Store.open(path) as store:
            store.put(persistence.GAME_KIND, "damaged row", {"x": 1})
        raw = sqlite3.connect(path)
        raw.execute("UPDATE documents SET body='{\"format\": \"aluette-app-' WHERE key='damaged row'")
        raw.commit()
        raw.close()
        cases = [("damaged row", None)] + [(f"m{n:05d}", mutate(save, rng)) for n in range(count - 1)]
        db = persistence.store()
        for name, data in cases:
            if data is not None:
                try:
                    db.put(persistence.GAME_KIND, name, data)
                except ValueError:
                    counts["unstorable"] += 1  # infinity is not JSON: the Store refuses it, fine
                    continue
            for action, ok, bad in ((persistence.resume_game, "resumed", "refused"),
                                    (persistence.replay_game, "replayed", "replay_refused")):
                try:
                    action(name)
                    counts[ok] += 1
                except persistence.SaveError as error:
                    counts[bad] += 1
                    if "failed unexpectedly" in str(error):
                        counts["unexpected"] += 1
                        problems.append(f"{name} {action.__name__}: {error}")
                except BaseException as error:  # noqa: BLE001 - what the page would have shown as a traceback
                    counts["uncaught"] += 1
                    problems.append(f"{name} {action.__name__}: {type(error).__name__}: {error}"[:300])
            if data is not None:
                db.delete(persistence.GAME_KIND, name)
    peak = _peak_mb()
    return {"saves": count, **counts, "peak_rss_mb": round(peak, 1), "problems": problems[:20]}


def _peak_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from a parent)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.lab.fuzz_saves", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    summary = run(args.count, args.seed)
    print(json.dumps(summary, indent=1))
    return 0 if summary["uncaught"] == 0 and summary["unexpected"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
