"""The browser front end: a FastAPI app (``app.py``) over the engine, with plain ES modules in ``static/``."""
