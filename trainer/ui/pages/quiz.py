"""The Quiz page (Streamlit page file): renders trainer.ui.views.quiz."""

from trainer.ui.views import quiz

quiz.show()
