"""The fold behind ``referee_desk.match.replay``: one module per part of the record.

``replayer`` (core: envelope checks, dispatch, the frozen state), ``books`` (running
values and shared helpers), ``hand`` (the hand in progress), ``bidding`` (2.x),
``play`` (tricks and hand results), ``audit`` (follows the record proves illegal),
``penalties`` (chapter 8), ``clock_end`` (1.5 clock, time-out and match end),
``corrections``, ``trick_input`` (a trick payload prepared once) and ``memo``
(memoised parsing and rules calls; ``clear_caches()``).
"""
