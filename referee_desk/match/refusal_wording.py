"""The phrasebook of refusals: one English and one Chinese template per ``EventRefused`` key.

A refusal of the match layer carries a stable dotted ``key`` (``bid.counter_not_higher``)
and plain ``params``; its ``str()`` stays the English line of the code that raised it.
``word_refusal(error, "zh_CN")`` words it for a Chinese referee, with seats, sides,
trumps, event kinds and hand stages in the glossary's terms (RULES.md section 13), so
the desk and the CLI say the same thing. A refusal without a known key is worded by
``fallback``: what was refused and the articles its English line names, never the
English line itself in Chinese.

Placeholders name a kind after the colon: ``{seat:seat}``, ``{side:side}``,
``{trump:trump}``, ``{type:event}`` (event kind), ``{status:status}`` (hand stage),
``{n:num}`` (true minus sign), ``{field:field}`` (a payload field's name).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from referee_desk.match.errors import EventRefused
from referee_desk.match.refusal_phrases import REFUSALS
from referee_desk.rules.wording import (
    END_REASON_NAMES,
    SEAT_NAMES,
    SIDE_NAMES,
    TRUMP_NAMES,
    number_text,
)

_STATUS = {
    "en": {
        "bidding": "bidding",
        "playing": "play",
        "revoked": "a revoke (劳改) awaiting the choice",
        "play (after bidding_closed)": "play (after the bidding is closed)",
        "a revoke awaiting the penalty choice": "a revoke (劳改) awaiting the choice",
    },
    "zh_CN": {
        "bidding": "叫牌阶段",
        "playing": "出牌阶段",
        "revoked": "劳改待选择",
        "finished": "已结束",
        "voided": "已作废",
        "play (after bidding_closed)": "出牌阶段（叫牌结束后）",
        "a revoke awaiting the penalty choice": "劳改待选择",
    },
}
#: The presets as a referee names them (``{ruleset:ruleset}``; RULES.md section 12).
_RULESETS = {
    "en": {
        "guilin-2009": "Guilin 2009",
        "qq-four-deck": "the QQ four decks preset",
        "three-deck": "the three decks preset",
    },
    "zh_CN": {
        "guilin-2009": "桂林 2009",
        "qq-four-deck": "QQ 四副牌",
        "three-deck": "三副牌",
    },
}
#: Event kinds as the desk names them (glossary terms).
EVENT_NAMES = {
    "zh_CN": {
        "match_opened": "开赛",
        "clock_started": "开始计时",
        "clock_paused": "暂停计时",
        "clock_resumed": "恢复计时",
        "hand_started": "开始新一盘",
        "bid": "叫牌",
        "bidding_closed": "叫牌结束",
        "redeal": "重新发牌",
        "trick": "出牌（一墩）",
        "hand_summary": "本盘结果",
        "wrong_play": "出错牌",
        "revoke": "劳改",
        "penalty_choice": "劳改选择",
        "open_bid": "明叫",
        "false_bid": "诈叫",
        "false_bid_trump": "诈叫后定主",
        "wrong_dealer": "坐庄顺序错误",
        "conduct_warning": "警告",
        "committee_decision": "仲裁委员会决定",
        "committee_ruling": "仲裁裁决",
        "think_overrun": "思考超时",
        "forfeit": "弃权",
        "match_ended": "比赛结束",
        "note": "备注",
        "correction": "更正",
        "kitty_buried": "扣底",
        "throw_failed": "甩牌失败",
        "concealment": "藏张",
    },
}
#: Payload fields named in schema refusals.
FIELD_NAMES = {
    "zh_CN": {
        "text": "文字说明",
        "reason": "原因",
        "seat": "座位",
        "side": "方",
        "cards": "牌",
        "kind": "类型",
        "dealer": "庄家",
        "trump": "主牌",
        "choice": "选择",
        "seconds": "秒数",
        "cards_exposed": "亮出的牌数",
        "defenders_points": "防守方得分",
        "defenders_points_before_last": "最后一墩前防守方得分",
        "last_trick_points": "最后一墩分数",
        "last_trick_cards_per_player": "最后一墩每人出牌数",
        "last_trick_side": "最后一墩赢方",
        "plays": "出牌",
        "leader": "领出者",
        "winner": "胜方",
        "target_seq": "更正的事件",
        "level_changes": "升级调整",
        "decision": "决定",
        "pairs": "队伍",
        "seats": "座位姓名",
        "table": "桌号",
        "round": "轮次",
        "referee": "裁判",
    },
    "en": {
        "text": "the text",
        "reason": "the reason",
        "seat": "the seat",
        "side": "the side",
        "cards": "the cards",
        "kind": "the kind",
        "dealer": "the dealer",
        "trump": "the trump",
        "choice": "the choice",
        "seconds": "the seconds",
        "cards_exposed": "the number of cards shown",
        "defenders_points": "the defenders' points",
        "defenders_points_before_last": "the defenders' points before the last trick",
        "last_trick_points": "the last trick's points",
        "last_trick_cards_per_player": "the last trick's cards per player",
        "last_trick_side": "the side that won the last trick",
        "plays": "the plays",
        "leader": "the leader",
        "winner": "the winner",
        "target_seq": "the event corrected",
        "level_changes": "the level changes",
        "decision": "the decision",
        "pairs": "the pairs",
        "seats": "the seats' names",
        "table": "the table",
        "round": "the round",
        "referee": "the referee",
    },
}


#: What a schema check found wrong, by JSON Schema keyword.
_PROBLEMS = {
    "en": {
        "minLength": "it must not be empty",
        "required": "it is missing",
        "minimum": "too small",
        "maximum": "too large",
        "multipleOf": "not a multiple of 5",
        "enum": "not an allowed value",
        "type": "the wrong kind of value",
        "pattern": "badly written",
        "additionalProperties": "unexpected entries",
    },
    "zh_CN": {
        "minLength": "不能为空",
        "required": "缺少",
        "minimum": "太小",
        "maximum": "太大",
        "multipleOf": "须为 5 的倍数",
        "enum": "不是允许的值",
        "type": "类型不对",
        "pattern": "格式不对",
        "additionalProperties": "含有多余的项",
    },
}
_ARTICLE = re.compile(r"\b\d{1,2}\.\d{1,2}\b")


class _Value:
    """One param, formatted by the kind its placeholder names (``{seat:seat}``)."""

    __slots__ = ("language", "value")

    def __init__(self, value: Any, language: str) -> None:
        self.value = value
        self.language = language

    def _look(self, table: Mapping[str, Mapping[str, str]]) -> str:
        return table.get(self.language, {}).get(str(self.value), str(self.value))

    def __format__(self, spec: str) -> str:
        tables: dict[str, Mapping[str, Mapping[str, str]]] = {
            "seat": SEAT_NAMES,
            "side": SIDE_NAMES,
            "trump": TRUMP_NAMES,
            "event": EVENT_NAMES,
            "status": _STATUS,
            "ruleset": _RULESETS,
            "field": FIELD_NAMES,
            "end_reason": END_REASON_NAMES,
            "problem": _PROBLEMS,
        }
        if spec == "num":
            return number_text(int(self.value))
        if spec == "status":  # the match layer joins the stages it would take with " or "
            joiner = "或" if self.language == "zh_CN" else " or "
            stages = str(self.value).split(" or ")
            look = _STATUS.get(self.language, {})
            return joiner.join(look.get(stage, stage) for stage in stages)
        if spec in tables:
            return self._look(tables[spec])
        return str(self.value)


def _language(language: str) -> str:
    return "zh_CN" if language == "zh_CN" else "en"


def word_key(key: str, params: Mapping[str, Any], language: str = "zh_CN") -> str | None:
    """The template of ``key`` filled with ``params``; None if the key or a param is unknown."""
    templates = REFUSALS.get(key)
    if templates is None:
        return None
    lang = _language(language)
    template = templates[1] if lang == "zh_CN" else templates[0]
    fields = {name: _Value(value, lang) for name, value in params.items()}
    if key == "correction.would_refuse":
        inner = word_key(str(params.get("inner_key", "")), params.get("inner", {}), lang)
        fields["inner"] = _Value(inner or fallback_text(None, lang), lang)
    try:
        return template.format_map(fields)
    except (KeyError, IndexError, ValueError):
        return None


def fallback_text(error: EventRefused | None, language: str = "zh_CN") -> str:
    """A keyless refusal: the English line in English; in Chinese what was refused and
    the articles the English line names."""
    lang = _language(language)
    if error is not None and lang == "en":
        return error.reason
    articles = [] if error is None else list(dict.fromkeys(_ARTICLE.findall(error.reason)))
    what = ""
    if error is not None and error.event_type:
        what = EVENT_NAMES["zh_CN"].get(error.event_type, "")
    text = f"{what}不符合规则或记录" if what else "不符合规则或记录"
    if articles:
        text += "（" + "、".join(articles) + "）"
    return text


def word_refusal(error: EventRefused, language: str = "zh_CN") -> str:
    """The refusal worded in ``language`` (``zh_CN`` or ``en``)."""
    if error.key:
        worded = word_key(error.key, error.params, language)
        if worded is not None:
            return worded
    return fallback_text(error, language)
