"""The app's routes, one :class:`fastapi.APIRouter` a part: a game and its actions (``games``), a player's
records (``records``), and the page and its files (``pages``)."""
