"""Emptying every replay memo at once: the cold case of the benchmark and its tests.

Kept apart from ``memo`` so that the memo module imports none of the modules whose
caches it would clear (``trick_input`` imports ``memo``).
"""

from __future__ import annotations

from referee_desk.match.fold import memo, trick_input


def clear_caches() -> None:
    """Empty every replay memo (a cold replay, as in a fresh process)."""
    for fn in (
        memo.event_ms,
        memo.card_of,
        memo.canon,
        memo.ctx_of,
        memo.suit_memo,
        memo.token_suits,
        memo.judge_trick,
        memo.judge_follow,
        memo.top_follow,
    ):
        fn.cache_clear()
    trick_input.clear()
    memo.PARSED.clear()
