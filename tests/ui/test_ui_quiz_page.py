"""The Quiz page under AppTest: answering records progress in the Store (FSRS), shown again later."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _quiz() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/quiz.py").run()
    assert not at.exception, at.exception
    return at


def _answer(at: AppTest, right: bool) -> None:
    question = at.session_state["quiz_question"]
    assert not question.is_order
    keys = [c.key for c in question.choices]
    index = keys.index(question.answer[0]) if right else next(i for i, k in enumerate(keys) if k != question.answer[0])
    at.button(key=f"quiz_choice_{index}").click().run()
    assert not at.exception, at.exception


def test_answering_records_progress_that_survives_a_new_session(data_home):
    from trainer.quiz.memory import LOG_KIND
    from trainer.storage import Store

    at = _quiz()
    at.button(key="quiz_start").click().run()
    first = at.session_state["quiz_question"]
    pictures = sum(m.value.count("<img") for m in at.markdown)
    if first.cards:  # the question's cards are drawn, the choices' cards are not (no give-away)
        drawn = sum(c.card is None and (c.gesture or c.sign) is not None for c in first.choices)
        assert pictures == len(first.cards) + drawn
    _answer(at, right=True)
    assert at.success and at.success[0].value.startswith("Right!")
    at.button(key="quiz_next").click().run()
    second = at.session_state["quiz_question"]
    assert second.item != first.item
    _answer(at, right=False)
    assert at.error and at.error[0].value.startswith("Not quite:")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Seen"] == "2" and metrics["This sitting"] == "1/2"

    with Store.open() as store:
        reviews = store.records(LOG_KIND)
    assert len(reviews) == 2

    later = _quiz()  # a new browser session: progress comes back from the Store
    assert {m.label: m.value for m in later.metric}["Seen"] == "2"
    from trainer.ui.views.quiz import item_text

    settings = later.session_state["settings"]
    items = set(later.dataframe[0].value["what"])
    assert {item_text(first.item, settings), item_text(second.item, settings)} <= items


def test_after_a_wrong_answer_the_page_shows_no_perfect_recall_and_no_ids(data_home):
    """Issue 12: "forecast recall 100 %" right after a wrong answer, and ids like name:3D on screen."""
    at = _quiz()
    at.button(key="quiz_start").click().run()
    question = at.session_state["quiz_question"]
    _answer(at, right=False)
    metrics = {m.label: m.value for m in at.metric}
    wrong = int(metrics["Recall tomorrow"].rstrip("%"))
    assert wrong < 100 and "Forecast recall" not in metrics
    table = at.dataframe[0].value
    shown = " ".join(str(v) for v in table.to_numpy().ravel()) + " ".join(
        e.value for e in list(at.error) + list(at.caption) + list(at.markdown))
    assert question.item not in shown and ":" + question.item.split(":")[1] not in shown
    assert "recall now" not in " ".join(table.columns)
    # A right answer to a fresh item forecasts a better recall than the failed one.
    at.button(key="quiz_next").click().run()
    _answer(at, right=True)
    rows = at.dataframe[0].value.set_index(["what", "question"])["recall tomorrow %"]
    from trainer.ui.views.quiz import item_text

    settings = at.session_state["settings"]

    def key(q):
        return item_text(q.item, settings), q.kind.title.show(settings.language.value)

    assert rows[key(question)] == wrong
    assert rows[key(at.session_state["quiz_question"])] > wrong


def test_a_failed_item_is_due_sooner_than_a_known_one(data_home):
    at = _quiz()
    at.button(key="quiz_start").click().run()
    _answer(at, right=False)
    failed = at.session_state["quiz_feedback"]
    at.button(key="quiz_next").click().run()
    _answer(at, right=True)
    known = at.session_state["quiz_feedback"]
    assert failed.due < known.due
