"""Consequences in Chinese and English (RULES.md 13 glossary; referee_desk.rules.wording).

Every consequence key has an English and a Chinese template; the English ``text`` of a
consequence is its English template; every consequence the sample matches and the
match tests' scenarios produce is worded in Chinese without English words left over.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from conftest import SEEN_CONSEQUENCES
from test_review_helpers import started

from referee_desk.match import Event, replay
from referee_desk.match.state import Consequence
from referee_desk.phrasebook import CONSEQUENCES as TEMPLATES
from referee_desk.phrasebook import FREE_TEXT_ARGS, render
from referee_desk.rules import wording
from referee_desk.rules.result import hand_result, result_from_levels_up
from referee_desk.rules.wording import WordingError, describe

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"
#: ASCII words allowed in Chinese wording: card notation (LJ, BJ) only; single letters
#: (levels J Q K A, the choices A/B) and numbers are not words here.
ALLOWED = {"LJ", "BJ"}


def _english_words(zh: str, args: dict) -> list[str]:
    for name in FREE_TEXT_ARGS:
        if isinstance(args.get(name), str) and args[name]:
            zh = zh.replace(args[name], " ")
    return [w for w in re.findall(r"[A-Za-z_]{2,}", zh) if w not in ALLOWED]


def _placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_key_has_both_templates_with_the_same_placeholders(key):
    en, zh = TEMPLATES[key]
    assert en.strip() and zh.strip()
    assert _placeholders(en) == _placeholders(zh), key
    # Chinese template: no English words outside its placeholders.
    bare = re.sub(r"\{[^}]*\}", "", zh)
    assert not [w for w in re.findall(r"[A-Za-z_]{2,}", bare) if w not in ALLOWED], zh


def test_glossary_localizes_sides_seats_roles_trumps():
    """RULES 13: 庄家方 / 防守方; sides 南北/东西; seats 北东南西; 无主."""
    c = Consequence.make(
        5, "2.1", "bidding_closed", 1, hand=1, dealer="E", side="EW", level="J", trump="NT"
    )
    assert c.text == "hand 1: dealer E, declarers EW at level J, no trump"
    assert describe(c, "zh_CN") == "第 1 盘：东坐庄，庄家方东西打 J，无主"
    assert describe(c, "en") == c.text
    # Issue 19: a suit reads "trump ♥" / "主 ♥", no trump "no trump" / "无主" (not "主 无主").
    c = Consequence.make(
        5, "2.1", "bidding_closed", 1, hand=1, dealer="E", side="EW", level="J", trump="H"
    )
    assert c.text == "hand 1: dealer E, declarers EW at level J, trump ♥"
    assert describe(c, "zh_CN") == "第 1 盘：东坐庄，庄家方东西打 J，主 ♥"
    c = Consequence.make(
        7, "8.2", "wrong_play", 1, seat="N", role="declarers", cards=1, per_card=10, delta=10
    )
    assert str(c) == "8.2: N (declarer) exposed 1 card(s) × 10: +10 to defenders"
    assert describe(c, "zh_CN") == "北（庄家方）出错牌 1 张 × 10：防守方得分 +10"
    assert "♥" in render("false_bid_trump", {"seat": "W", "trump": "H"}, "zh_CN")


def test_roles_carry_their_seating_side_in_a_match():
    """7.2 in a match: ``declarers NS`` / ``庄家方南北`` (which side had which role)."""
    d = started()
    d.race("N", "H")
    d.summary(100)
    c = next(c for c in d.state.consequences if c.article == "7.2")
    assert c.text == "defenders EW 100 → declarers NS +2, keep the deal (连庄)"
    assert describe(c, "zh_CN") == "防守方东西得分 100 → 庄家方南北升 2 级，连庄"
    doc = d.state.to_json()
    row = next(r for r in doc["consequences"] if r["article"] == "7.2")
    assert row["key"] == "stage_keep"
    assert row["args"]["declarers_side"] == "NS" and row["args"]["gain"] == 2
    json.dumps(doc)  # JSON-ready


def test_rules_consequences_are_worded_too():
    r = hand_result(
        defenders_points=155,
        last_trick_points=25,
        last_trick_cards=2,
        last_trick_winner="declarers",
        declarer_level="3",
        defender_level="3",
    )
    # RULES 11: 155 − 25 × 2 = 105 → declarers +2.
    assert r.articles[0] == "7.3: declarers win the last trick: −25×2 = −50; defenders 155 → 105"
    assert [describe(c, "zh_CN") for c in r.consequences][:2] == [
        "庄家方赢得最后一轮（反抠）：−25×2 = −50；防守方得分 155 → 105",
        "防守方得分 105 → 庄家方升 2 级，连庄",
    ]
    a = result_from_levels_up("defenders", 2, "5", "3")
    assert [c.key for c in a.consequences] == ["levels_up_take", "level_change"]


def test_unknown_key_and_missing_arg_are_named():
    with pytest.raises(WordingError, match="no wording"):
        render("nonsense", {})
    with pytest.raises(WordingError, match="seat"):
        render("open_bid", {"side": "NS"})
    with pytest.raises(WordingError, match="not an int"):
        wording.make_args(seat=None)


def test_a_consequence_without_key_falls_back_to_its_text():
    assert describe(Consequence(1, "record", "legacy text"), "zh_CN") == "legacy text"


def _check(consequences, where):
    for c in consequences:
        assert c.key, f"{where}: consequence without key: {c}"
        assert describe(c, "en") == c.text, f"{where}: {c}"
        zh = describe(c, "zh_CN")
        assert zh != c.text or not re.search("[A-Za-z]{2,}", c.text), (where, c)
        left = _english_words(zh, dict(c.args))
        assert not left, f"{where}: {zh!r} keeps English words {left}"


@pytest.mark.parametrize(
    "path",
    sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "presets").glob("*.jsonl")),
    ids=lambda p: p.name,
)
def test_sample_consequences_render_in_chinese(path):
    with path.open(encoding="utf-8") as f:
        events = [Event.from_dict(json.loads(line)) for line in f if line.strip()]
    state = replay(events)
    assert state.consequences
    _check(state.consequences, path.name)
    if state.end is not None:
        assert describe(state.end, "en") == state.end.text
        assert not _english_words(describe(state.end, "zh_CN"), dict(state.end.args))


def test_consequences_of_the_match_tests_render_in_chinese():
    """Every consequence replayed by the match tests collected before this module
    (conftest ``SEEN_CONSEQUENCES``); run alone, this module's own scenarios count."""
    d = started()
    d.race("N", "H")
    d.ev("revoke", {"seat": "N", "kind": "withheld", "defenders_points": 45})
    d.ev("penalty_choice", {"seat": "W", "choice": "B"})
    assert SEEN_CONSEQUENCES
    keys = {key for key, _, _ in SEEN_CONSEQUENCES}
    assert "revoke" in keys and "revoke_b" in keys
    for (key, args, text), nodeid in SEEN_CONSEQUENCES.items():
        _check([Consequence(0, "", text, None, key, args)], nodeid)
