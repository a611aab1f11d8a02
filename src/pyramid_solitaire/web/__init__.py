"""The browser front end: a FastAPI app (``app.py`` assembles it from ``routes/``) over the engine, with
plain ES modules in ``static/``."""
