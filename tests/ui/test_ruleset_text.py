"""The open-match form's ruleset text: no internal identifier in the Chinese UI (issue 19
item 5: "规则 three-deck" and the like reached the screen)."""

from __future__ import annotations

import pytest

from referee_desk.ui.dialogs.open_match import ruleset_text
from referee_desk.ui.language import LanguageManager

PRESETS = ("guilin-2009", "qq-four-deck", "three-deck")


@pytest.fixture
def languages(qapp):
    manager = LanguageManager()
    yield manager
    manager.apply("en")


@pytest.mark.parametrize("name", PRESETS)
def test_the_chinese_ruleset_text_names_no_identifier(languages, name) -> None:
    languages.apply("zh_CN")
    text = ruleset_text(name)
    assert not any(preset in text for preset in PRESETS), text


def test_the_english_ruleset_text_keeps_the_identifier(languages) -> None:
    languages.apply("en")
    assert "(three-deck)" in ruleset_text("three-deck")
