"""The Practice page (Streamlit page file): renders trainer.ui.views.practice."""

from trainer.ui.views import practice

practice.show()
