"""The phrasebook: every keyed phrase the desk words for a person, in English and Chinese.

One book (issue 17 item 9) for the three kinds of keyed text: the consequences the
rules and the fold derive (``consequences.py``, plain keys such as ``stage_keep``),
the match layer's refusals (``refusals.py``, dotted keys such as
``bid.counter_not_higher``) and the store's (``store_refusals.py``, ``store.wrong_pin``).
A consequence or a raise site passes only a key and plain params; ``render`` fills the
template of either language, naming seats, sides, stages and events with the glossary
(``glossary.py``, RULES.md section 13). The English of a match refusal is its ``str()``
as well: written once.

The bottom layer: it imports nothing else of the desk, so rules, match, store, the
exports and the ui all word through it (tests/test_architecture.py).
"""

from referee_desk.phrasebook.consequences import CONSEQUENCES, FREE_TEXT_ARGS
from referee_desk.phrasebook.refusals import REFUSALS
from referee_desk.phrasebook.render import (
    LANGUAGES,
    PHRASES,
    Language,
    PhraseError,
    language_of,
    number_text,
    render,
    render_action,
    render_reason,
)
from referee_desk.phrasebook.store_refusals import (
    ACCESS_REASONS,
    STORE_ACTIONS,
    STORE_REFUSALS,
)

__all__ = [
    "ACCESS_REASONS",
    "CONSEQUENCES",
    "FREE_TEXT_ARGS",
    "LANGUAGES",
    "PHRASES",
    "REFUSALS",
    "STORE_ACTIONS",
    "STORE_REFUSALS",
    "Language",
    "PhraseError",
    "language_of",
    "number_text",
    "render",
    "render_action",
    "render_reason",
]
