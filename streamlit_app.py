"""Aluette Signal Trainer — the browser app. Start it with ``aluette app`` or
``streamlit run streamlit_app.py``. All the work is in ``trainer.ui``."""

from trainer.ui.app import run

run()
