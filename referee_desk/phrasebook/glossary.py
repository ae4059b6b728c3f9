"""The glossary's names (RULES.md section 13) that phrases fill in, by language.

Each table maps a raw value as the desk stores it (a seat letter, a side, a hand
stage, an event type, a payload field) to what a referee reads; a value missing from
a table is printed as it is. ``render`` picks the table by the placeholder's kind.
"""

from __future__ import annotations

Names = dict[str, dict[str, str]]

SIDE_NAMES: Names = {"zh_CN": {"NS": "南北", "EW": "东西"}}

SEAT_NAMES: Names = {"zh_CN": {"N": "北", "E": "东", "S": "南", "W": "西"}}

ROLE_NAMES: Names = {
    "en": {"declarers": "declarers", "defenders": "defenders"},
    "zh_CN": {"declarers": "庄家方", "defenders": "防守方"},
}

ROLE1_NAMES: Names = {
    "en": {"declarers": "declarer", "defenders": "defender"},
    "zh_CN": {"declarers": "庄家方", "defenders": "防守方"},
}

#: A person's role in a tournament file (``store/access.py``'s ROLES).
PERSON_ROLE_NAMES: Names = {
    "en": {"referee": "referee", "committee": "committee", "organizer": "organizer"},
    "zh_CN": {"referee": "裁判", "committee": "仲裁委员", "organizer": "主办方"},
}

TRUMP_NAMES: Names = {
    "zh_CN": {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "无主"},
    "en": {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "no trump"},
}

REVOKE_KIND_NAMES: Names = {
    "en": {
        "withheld": "a card withheld",
        "not_following": "not following",
        "wrong_follow": "a wrong follow",
        "card_count": "a wrong number of cards",
    },
    "zh_CN": {
        "withheld": "有牌不出",
        "not_following": "未按规定跟牌",
        "wrong_follow": "跟牌错误",
        "card_count": "牌数不对",
    },
}

END_REASON_NAMES: Names = {
    "en": {
        "passed_a": "passing A",
        "time_out": "time-out",
        "forfeit": "forfeit",
        "disqualification": "disqualification",
    },
    "zh_CN": {
        "passed_a": "打过A",
        "time_out": "比赛时间到",
        "forfeit": "弃权",
        "disqualification": "取消资格",
    },
}

CORRECTION_NAMES: Names = {
    "en": {"void": "voided", "replace": "replaced"},
    "zh_CN": {"void": "作废", "replace": "更正"},
}

STATUS_NAMES: Names = {
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
RULESET_NAMES: Names = {
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
EVENT_NAMES: Names = {
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
FIELD_NAMES: Names = {
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
PROBLEM_NAMES: Names = {
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
