"""The fold behind ``referee_desk.match.replay``: small parts that own their state.

``replayer`` is the thin core (envelope checks, the ``HANDLERS`` table, corrections'
refold, ``state()``). The state lives in three owners, gathered in ``parts.Fold``:
``books.MatchBooks`` (levels, warnings, violations, consequences, flags, notes,
corrections, the end), ``clock_book.ClockBook`` (the clock) and ``hand.Hands`` (the
hand in progress as a ``HandBook``, the hands over, the deal's rotation). Handlers
are plain functions, one module per part of the rules: ``opening``, ``bidding``
(2.x), ``play`` (tricks, summaries), ``closing`` (a hand's result), ``presets``
(section 12), ``penalties`` (chapter 8), ``clock_end`` (1.5 clock, time-out, end),
``corrections``. ``freeze`` turns a book into its frozen value by name; ``audit``
(follows the record proves illegal), ``trick_input`` (a trick payload prepared once)
and ``memo`` (memoised parsing and rules calls; ``caches.clear_caches()``) serve the
hot path.
"""
