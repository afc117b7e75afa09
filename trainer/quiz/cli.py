"""``aluette quiz``: the spaced-repetition quiz in the terminal, and ``aluette quiz --stats``;
``aluette deck``: the drawn cards as SVG files.

Keep imports here light (argparse only at module level); the quiz, fsrs and the Store are
imported inside the handler. Progress is saved after every answer, so Ctrl-D / end of input or
Ctrl-C ends a sitting without losing anything.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import TextIO

_UI = {
    "fr": {"right": "✓ Juste", "wrong": "✗ Faux — la réponse : {answer}", "next": "prochaine révision {when}",
           "again": "(Réponse non comprise : {error})", "prompt": "> ", "done": "Fin : {right}/{asked} justes.",
           "nothing": "Rien à réviser pour l'instant. Prochaine révision {when}.",
           "order": "Tapez les numéros (ou les codes) de la plus forte à la plus faible, ex. « 2 1 3 ».",
           "choose": "Tapez un numéro (ou le nom). q pour quitter.",
           "saved": "Progrès enregistré dans {path}.", "bye": "Au revoir !"},
    "en": {"right": "✓ Right", "wrong": "✗ Wrong — the answer: {answer}", "next": "next review {when}",
           "again": "(Answer not understood: {error})", "prompt": "> ", "done": "Done: {right}/{asked} right.",
           "nothing": "Nothing to review now. Next review {when}.",
           "order": "Type the numbers (or codes) strongest first, e.g. “2 1 3”.",
           "choose": "Type a number (or the name). q to quit.",
           "saved": "Progress saved in {path}.", "bye": "Goodbye!"},
    "it": {"right": "✓ Giusto", "wrong": "✗ Sbagliato — la risposta: {answer}", "next": "prossimo ripasso {when}",
           "again": "(Risposta non capita: {error})", "prompt": "> ", "done": "Fine: {right}/{asked} giuste.",
           "nothing": "Niente da ripassare ora. Prossimo ripasso {when}.",
           "order": "Scrivi i numeri (o i codici) dalla più forte, es. « 2 1 3 ».",
           "choose": "Scrivi un numero (o il nome). q per uscire.",
           "saved": "Progressi salvati in {path}.", "bye": "Arrivederci!"},
}


_RATING = {
    "fr": {"Again": "à revoir", "Hard": "difficile", "Good": "bien", "Easy": "facile"},
    "en": {"Again": "again", "Hard": "hard", "Good": "good", "Easy": "easy"},
    "it": {"Again": "da rivedere", "Hard": "difficile", "Good": "bene", "Easy": "facile"},
}


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def add_commands(subparsers) -> None:
    parser = subparsers.add_parser(
        "quiz",
        help="learn the cards and signs with a spaced-repetition quiz (FSRS)",
        description="Ask questions about the cards, their strength and their signs; what you are about "
        "to forget comes back first. Progress is saved after every answer.",
    )
    parser.add_argument("--count", type=int, default=10, metavar="N", help="questions in this sitting (default 10)")
    parser.add_argument("--language", choices=("fr", "en", "it"), default="fr",
                        help="fr: French with English beside (default); en: English first; it: Italian")
    parser.add_argument("--kinds", default="", metavar="K,K",
                        help="only these kinds: name,pick,sign,sign_card,group,order,trick (default all)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help="database file (default: aluette.sqlite3 in $ALUETTE_HOME or the user data folder)")
    parser.add_argument("--profile", default="default", help="whose progress (default 'default')")
    parser.add_argument("--new", type=int, default=10, metavar="N",
                        help="at most N new items this sitting (default 10)")
    parser.add_argument("--convention", default="classic", help="sign convention: classic, regional, camera_friendly")
    parser.add_argument("--seed", type=int, default=None, help="seed the question generator (for repeatable runs)")
    parser.add_argument("--no-ahead", action="store_true",
                        help="stop when nothing is due instead of practising ahead")
    parser.add_argument("--stats", action="store_true",
                        help="show what is due and each item's forecast recall, then exit")
    parser.add_argument("--all", action="store_true", help="with --stats: list new items too")
    parser.add_argument("--reset", action="store_true", help="forget this profile's progress (asks no question)")
    parser.add_argument("--reset-item", action="append", default=[], metavar="ITEM",
                        help="forget one item of this profile (repeatable), e.g. a damaged one; "
                        "--stats --all lists the items")
    parser.set_defaults(run=run)

    deck = subparsers.add_parser(
        "deck",
        help="write the drawn cards as SVG: one card, the back, a sign, or the whole contact sheet",
        description="Without arguments, write the contact sheet of all 48 cards (strongest first), the back "
        "and every sign. With card codes, write those cards.",
    )
    deck.add_argument("cards", nargs="*", metavar="CODE", help="card codes such as 3D 2C RB (or 'back')")
    deck.add_argument("--out", default=None, metavar="PATH",
                      help="file (one card or the sheet) or folder (several cards); default: print to stdout")
    deck.add_argument("--language", choices=("fr", "en", "it"), default="fr")
    deck.add_argument("--width", type=float, default=None, help="width in pixels (height is 1.5 x)")
    deck.add_argument("--no-hints", action="store_true", help="no name, level or sign: as the quiz shows cards")
    deck.add_argument("--convention", default="classic", help="which signs the corners show")
    deck.add_argument("--png", action="store_true", help="with --out: also a PNG of the sheet (headless Chromium)")
    deck.set_defaults(run=run_deck)


def run_deck(args: argparse.Namespace) -> int:
    from pathlib import Path

    from trainer.deck import card_back_svg, card_svg
    from trainer.deck.sheet import contact_sheet_svg, render_png, svg_size
    from trainer.rules.cards import Card
    from trainer.signals.conventions import Convention

    convention = Convention.named(args.convention)
    if not args.cards:
        svg = contact_sheet_svg(args.language)
        if args.out is None:
            print(svg)
            return 0
        out = Path(args.out)
        out.write_text(svg + "\n", encoding="utf-8")
        print(f"wrote {out}")
        if args.png:
            render_png(out, out.with_suffix(".png"), *svg_size(svg))
            print(f"wrote {out.with_suffix('.png')}")
        return 0
    drawings = []
    for code in args.cards:
        if code.lower() == "back":
            drawings.append(("back", card_back_svg(width=args.width)))
        else:
            card = Card.parse(code)
            drawings.append((card.code, card_svg(card, language=args.language, width=args.width,
                                                 hints=not args.no_hints, convention=convention)))
    if args.out is None:
        for _, svg in drawings:
            print(svg)
        return 0
    out = Path(args.out)
    if len(drawings) == 1 and out.suffix.lower() == ".svg":
        out.write_text(drawings[0][1] + "\n", encoding="utf-8")
        print(f"wrote {out}")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    for name, svg in drawings:
        (out / f"{name}.svg").write_text(svg + "\n", encoding="utf-8")
    print(f"wrote {len(drawings)} files in {out}")
    return 0


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, stdout: TextIO | None = None,
        clock: Callable[[], datetime] | None = None) -> int:
    import random
    import time

    from trainer.quiz.memory import Progress, Session
    from trainer.quiz.questions import Kind
    from trainer.quiz.texts import QuizError
    from trainer.signals.conventions import Convention
    from trainer.storage import Store

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    clock = clock or (lambda: datetime.now(timezone.utc))
    if args.count < 1:
        raise QuizError(f"--count {args.count} must be 1 or more")
    if args.new < 0:
        raise QuizError(f"--new {args.new} must be 0 or more")
    kinds = tuple(Kind.parse(k) for k in args.kinds.split(",") if k.strip()) or None
    convention = Convention.named(args.convention)
    with Store.open(args.db) as store:
        progress = Progress(store, args.profile)
        if args.reset_item:
            from trainer.quiz.questions import ALL_ITEMS

            unknown = [item for item in args.reset_item if item not in ALL_ITEMS]
            if unknown:
                raise QuizError(f"--reset-item {unknown[0]!r} is not a quiz item: "
                                "'aluette quiz --stats --all' lists them")
            forgot = progress.reset(args.reset_item)
            print(f"forgot {forgot} of {len(args.reset_item)} item(s) of profile {args.profile!r} in {store.path}",
                  file=out)
            return 0
        if args.reset:
            print(f"forgot {progress.reset()} items of profile {args.profile!r} in {store.path}", file=out)
            return 0
        if args.stats:
            _print_stats(progress, clock(), kinds, args.language, out, show_new=args.all)
            return 0
        session = Session(progress, rng=random.Random(args.seed), kinds=kinds, new_limit=args.new,
                          ahead=not args.no_ahead, convention=convention, language=args.language)
        return _ask(session, args.count, args.language, stdin, out, clock, time.monotonic, store.path)


def _ask(session, count: int, language: str, stdin: TextIO, out: TextIO, clock, timer, path) -> int:
    from trainer.quiz.texts import QuizError

    ui = _UI[language]
    try:
        for number in range(1, count + 1):
            now = clock()
            question = session.next_question(now)
            if question is None:
                summary = session.progress.summary(now, session.kinds)
                print(ui["nothing"].format(when=_until(summary.next_due, now, language)), file=out)
                break
            _show(question, number, count, language, out)
            started = timer()
            while True:
                print(ui["prompt"], end="", file=out, flush=True)
                line = stdin.readline()
                if not line:  # end of input: everything answered so far is already saved
                    print(file=out)
                    return _finish(session, language, out, path)
                if not _is_tty(stdin):
                    print(line.rstrip("\n"), file=out)  # piped answers: show them as a terminal would
                if line.strip().lower() in ("q", "quit", "exit"):
                    return _finish(session, language, out, path)
                try:
                    response = question.parse(line)
                    break
                except QuizError as error:
                    print(ui["again"].format(error=error), file=out)
            seconds = timer() - started
            now = clock()
            outcome = session.answer(question, response, seconds=seconds, now=now)
            if outcome.correct:
                print(f"{ui['right']} ({_RATING[language][outcome.rating.name]})", file=out)
            else:
                print(ui["wrong"].format(answer=outcome.answer), file=out)
            print(f"  {outcome.explanation}", file=out)
            print(f"  {ui['next'].format(when=_until(outcome.due, now, language))}", file=out)
    except KeyboardInterrupt:
        print(file=out)
    except BrokenPipeError:
        # the reader went away (``aluette quiz | head``): answers are saved, leave quietly
        if out is sys.stdout:
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return _finish(session, language, out, path)


def _finish(session, language: str, out: TextIO, path) -> int:
    ui = _UI[language]
    print(ui["done"].format(right=session.right, asked=session.asked), file=out)
    print(ui["saved"].format(path=path), file=out)
    return 0


def _show(question, number: int, count: int, language: str, out: TextIO) -> None:
    from trainer.quiz.questions import Kind

    ui = _UI[language]
    print(file=out)
    print(f"[{number}/{count}] {question.kind.title.show(language)}", file=out)
    print(question.prompt.show(language), file=out)
    if question.kind in (Kind.NAME, Kind.GROUP, Kind.SIGN):
        for card in question.cards:
            # the plain name only: the nickname, group or sign is what is asked
            print(f"    {card.code}  {_plain(card, language)}", file=out)
    elif question.cards:
        for i, card in enumerate(question.cards, 1):
            print(f"    {i}. {card.code}  {_plain(card, language)}", file=out)
    if question.is_order:
        print(ui["order"], file=out)
        return
    for i, choice in enumerate(question.choices, 1):
        print(f"  {i}) {choice.text.show(language)}", file=out)
    print(ui["choose"], file=out)


def _plain(card, language: str) -> str:
    return {"fr": card.french, "en": card.english, "it": card.italian}[language]


def _until(when: datetime | None, now: datetime, language: str) -> str:
    """``dans 10 min`` / ``in 3 d``: how far ahead ``when`` is."""
    if when is None:
        return {"fr": "— (rien encore)", "en": "— (nothing yet)", "it": "— (niente ancora)"}[language]
    seconds = (when - now).total_seconds()
    if seconds <= 0:
        return {"fr": "maintenant", "en": "now", "it": "adesso"}[language]
    if seconds < 3600:
        amount = f"{max(1, round(seconds / 60))} min"
    elif seconds < 86400:
        amount = f"{seconds / 3600:.0f} h"
    else:
        amount = f"{seconds / 86400:.0f} " + {"fr": "j", "en": "d", "it": "g"}[language]
    return {"fr": "dans ", "en": "in ", "it": "tra "}[language] + amount


def _print_stats(progress, now: datetime, kinds, language: str, out: TextIO, *, show_new: bool) -> None:
    summary = progress.summary(now, kinds)
    head = {
        "fr": "Éléments : {total} ({new} nouveaux, {learning} en apprentissage, {review} en révision) · "
              "à revoir maintenant : {due_now} · dans les 24 h : {due_today} · prochaine : {next}",
        "en": "Items: {total} ({new} new, {learning} learning, {review} in review) · due now: {due_now} · "
              "within 24 h: {due_today} · next: {next}",
        "it": "Elementi: {total} ({new} nuovi, {learning} in apprendimento, {review} in ripasso) · "
              "da ripassare ora: {due_now} · entro 24 h: {due_today} · prossimo: {next}",
    }[language]
    print(head.format(total=summary.total, new=summary.new, learning=summary.learning, review=summary.review,
                      due_now=summary.due_now, due_today=summary.due_today,
                      next=_until(summary.next_due, now, language)), file=out)
    if summary.mean_retrievability is not None:
        label = {"fr": "rappel prévu moyen", "en": "mean forecast recall", "it": "richiamo previsto medio"}[language]
        print(f"{label}: {summary.mean_retrievability:.0%}", file=out)
    columns = {"fr": ("élément", "état", "révision", "rappel", "dans 7 j", "vues", "oublis"),
               "en": ("item", "state", "due", "recall", "in 7 d", "seen", "lapses"),
               "it": ("elemento", "stato", "ripasso", "richiamo", "tra 7 g", "viste", "errori")}[language]
    print(f"{columns[0]:<22} {columns[1]:<11} {columns[2]:<14} {columns[3]:>7} {columns[4]:>8} {columns[5]:>5} "
          f"{columns[6]:>6}", file=out)
    week = now + timedelta(days=7)
    for status in progress.statuses(now, kinds):
        if status.is_new and not show_new:
            continue
        if status.is_new:
            print(f"{status.item:<22} {'new':<11}", file=out)
            continue
        later = progress.retrievability(status.item, week)
        print(f"{status.item:<22} {status.state:<11} {_until(status.due, now, language):<14} "
              f"{status.retrievability:>7.0%} {later:>8.0%} {status.reviews:>5} {status.lapses:>6}", file=out)
