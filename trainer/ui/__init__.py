"""The Streamlit app (``streamlit_app.py`` runs ``trainer.ui.app.run``): pages, session state, the
live camera's frame watcher, and the bridges to the other layers. May import every layer; holds no
game logic and no feature math of its own.
"""
