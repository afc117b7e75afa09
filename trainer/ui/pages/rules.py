"""The Rules page (Streamlit page file): renders trainer.ui.views.rules."""

from trainer.ui.views import rules

rules.show()
