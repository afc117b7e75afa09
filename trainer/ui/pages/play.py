"""The Play page (Streamlit page file): renders trainer.ui.views.play."""

from trainer.ui.views import play

play.show()
