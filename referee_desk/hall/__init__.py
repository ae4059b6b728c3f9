"""The hall page: a read-only live web app for players and a projector (``hall serve``)."""
