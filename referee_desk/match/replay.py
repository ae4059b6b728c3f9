"""Replay: fold a match's events into its state, refusing what cannot happen.

The fold itself lives in ``referee_desk.match.fold`` (one module per part of the
rules); this module keeps the public entry points where the rest of the desk imports
them from.
"""

from referee_desk.match.fold.caches import clear_caches
from referee_desk.match.fold.replayer import Replayer, collection_paused, replay, replayer_for

__all__ = ["Replayer", "clear_caches", "collection_paused", "replay", "replayer_for"]
