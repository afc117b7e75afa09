"""The Quiz page with others writing the same database: two tabs' answers both count, and a store
that fails under the page gives a message, not a traceback."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from trainer.quiz.memory import DOC_KIND
from trainer.ui import persistence

APP = str(Path(__file__).resolve().parents[2] / "streamlit_app.py")


def _started() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("trainer/ui/pages/quiz.py").run()
    at.button(key="quiz_start").click().run()
    assert not at.exception, at.exception
    return at


def _answer_wrong(at: AppTest) -> str:
    question = at.session_state["quiz_question"]
    keys = [c.key for c in question.choices]
    index = next(i for i, k in enumerate(keys) if k != question.answer[0])
    at.button(key=f"quiz_choice_{index}").click().run()
    assert not at.exception, at.exception
    return question.item


def test_two_tabs_answering_the_same_item_both_count(data_home):
    first, second = _started(), _started()  # both loaded their progress before either answered
    item = _answer_wrong(first)
    assert _answer_wrong(second) == item  # the same first new item in teaching order
    doc = persistence.store().get(DOC_KIND, f"default/{item}")
    assert doc["reviews"] == 2 and doc["lapses"] == 2


def test_a_failing_store_is_a_message_on_the_quiz_page(data_home):
    at = _started()
    persistence.store().close()  # the database goes away under the page (as after a fault)
    _answer_wrong(at)
    assert any(e.value.startswith("This answer was not saved: ") and "closed" in e.value for e in at.error)
