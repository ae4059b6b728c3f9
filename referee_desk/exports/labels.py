"""Words the printed documents share (Chinese first, English where it helps)."""

from __future__ import annotations

from referee_desk.rules.ruleset import GUILIN_2009, PARAMETER_ARTICLES, Ruleset
from referee_desk.tournament.model import Decision, Pair, Slot, TieBreak, level_name

PARAMETER_LABELS: dict[str, str] = {
    "decks": "牌副数 decks",
    "bridge_level_gap": "级牌空档相连 bridge level gap",
    "triple_lead_spares_tractors": "出三张不拆拖拉机 triple lead spares tractors",
    "last_trick": "反抠计分 last trick",
    "stage": "上台分 stage",
    "step": "每级分差 step",
    "must_play_a": "必打A must play A",
    "rotation": "轮庄 rotation",
    "no_bid": "无人叫牌 no bid",
    "misplay_points_per_card": "出错牌每张罚分 wrong play points/card",
    "revoke_established": "劳改成立 revoke established",
    "think_seconds": "思考时间(秒) think seconds",
    "overrun_counts_as_warning": "超时计警告 overrun = warning",
    "match_minutes": "比赛时间(分) match minutes",
    "at_time_out": "到时处理 at time-out",
    # RULES.md section 12 (the presets qq-four-deck and three-deck)
    "kitty": "底牌张数 kitty cards",
    "levels": "打几到几 levels",
    "fixed_trump_ranks": "常主 fixed trumps",
    "twos_fixed_in_three_deck": "三副牌2为常主 2s fixed (three decks)",
    "bombs_beat_tractors": "炸弹推土机大过拖拉机 bombs beat tractors",
    "trump_tractor_chain": "主牌拖拉机链 trump tractor chain",
    "throws": "允许甩牌 throws",
    "throw_fail_points": "甩错牌罚分 failed-throw points",
    "kitty_multiplier": "抠底倍数 kitty multiplier",
    "shutout_bonus": "光头加级 shutout bonus",
    "max_gain": "每盘最多升级 max gain",
    "table_floor_at_zero": "负分按0查表 table floor at 0",
    "a_needs_dig": "打A须抠底 A needs a dig",
    "a_fallback": "未抠底退回 A fallback",
    "concealment": "藏张 concealment",
    "conceal_points": "藏张分 concealment points",
    "race_needs_lj": "抢庄须亮小王 race needs LJ",
}

#: The presets as printed beside their name (RULES.md section 12, seeds 000/001/002).
PRESET_TITLES: dict[str, str] = {
    "guilin-2009": "桂林规程2009 Guilin 2009 (000)",
    "qq-four-deck": "四副牌·网络房规则 four decks, online-room rules (001, RULES 12)",
    "three-deck": "三副牌 three decks (002, RULES 12)",
}


def preset_title(ruleset: Ruleset) -> str:
    """``qq-four-deck · 四副牌·网络房规则 …``: the preset's name and what it is."""
    title = PRESET_TITLES.get(ruleset.name)
    return f"{ruleset.name} · {title}" if title else ruleset.name


#: Choice values worded for print (RULES.md: the parameter's meaning), Chinese first.
VALUE_LABELS: dict[str, str] = {
    "multiply": "倍数计分 multiply (L×c)",
    "bonus": "另加分 bonus (+L×c)",
    "kitty": "底分 kitty",
    "partner_or_next": "连庄对家坐庄，下庄下家坐庄 partner or next",
    "redeal_first_else_nt": "首盘重发，其后无主 redeal first, else no-trump",
    "next_trick": "下一墩开始即成立 at the next trick",
    "finish_hand": "打完本盘 finish the hand",
    "stop": "立即停止，本盘作废 stop, hand void",
    "none": "无 none",
}


#: Values whose words depend on the parameter (RULES.md section 12), Chinese first.
KEY_VALUE_LABELS: dict[tuple[str, str], str] = {
    ("match_minutes", "None"): "无时限 no time limit",
    ("max_gain", "None"): "不封顶 no cap",
    ("levels", "3..A"): "从3打到A 3…A",
    ("levels", "2..A"): "从2打到A 2…A",
    ("fixed_trump_ranks", "2"): "常主2 the 2s",
    ("fixed_trump_ranks", "none"): "无常主 none",
    ("fixed_trump_ranks", "10"): "常主10 the 10s",
    ("fixed_trump_ranks", "10+2"): "常主10和2 the 10s and 2s",
    ("kitty_multiplier", "none"): "无 none",
    ("kitty_multiplier", "by_shape"): "按牌型 by shape (单×2 对×4 拖拉机×2^k)",
    ("kitty_multiplier", "power_of_cards"): "按张数 power of cards (×2^张数)",
    ("a_fallback", "J"): "退回J back to J",
}


def value_text(value: object, key: str = "") -> str:
    """A parameter value as printed: yes/no and choices in words, numbers as they are."""
    worded = KEY_VALUE_LABELS.get((key, str(value)))
    if worded:
        return worded
    if isinstance(value, bool):
        return "是 yes" if value else "否 no"
    if value is None:
        return "无 none"
    return VALUE_LABELS.get(str(value), str(value))


#: Parameters of sections 1-11 that section 12 sets for the presets: a preset's rows cite
#: both articles (RULES.md 12.1-12.8).
PRESET_ARTICLES: dict[str, str] = {
    "decks": "1.4, 12.1",
    "bridge_level_gap": "3.1, 12.2",
    "last_trick": "7.3, 12.5",
    "stage": "7.1, 12.6",
    "step": "7.1, 12.6",
    "match_minutes": "1.5, 12.8",
}


def ruleset_rows(ruleset: Ruleset) -> list[tuple[str, str, str]]:
    """(label, value, article) for every parameter in force."""
    rows = []
    preset = ruleset.name != GUILIN_2009.name
    for key, value in ruleset.parameters().items():
        if key == "revoke_established" and ruleset.concealment:
            continue  # 12.8: 藏张 replaces 劳改 (three-deck): Guilin's 劳改 is not printed
        article = PARAMETER_ARTICLES.get(key, "")
        if preset:
            article = PRESET_ARTICLES.get(key, article)
        rows.append((PARAMETER_LABELS.get(key, key), value_text(value, key), article))
    return rows


def forfeit_level_rule(ruleset: Ruleset) -> str:
    """8.10 worded with the ruleset's first level (3 in Guilin, 2 in the presets, 12.1)."""
    first = ruleset.first_level
    if first == "3":
        return FORFEIT_LEVEL_RULE
    return (
        f"弃权方本场计0分，按{first}级计入成绩 (8.10, 12.1): the forfeiting side scores 0 for "
        f"the match and is counted at level {first} in the results; the other side keeps the "
        "level it reached."
    )


#: Violation kinds as recorded (``Penalty.kind``) -> printed words with the article.
VIOLATION_LABELS: dict[str, str] = {
    "wrong_play": "出错牌 wrong play",
    "revoke": "劳改 revoke",
    "open_bid": "明叫 open bid",
    "false_bid": "诈叫 false bid",
    "wrong_dealer": "坐庄顺序错误 wrong dealer",
    "conduct_warning": "警告 conduct warning",
    "warning": "警告 conduct warning",
    "think_overrun": "超时思考 thinking overrun",
    "overrun": "超时思考 thinking overrun",
    "forfeit": "弃权 forfeit",
    "committee_decision": "仲裁决定 committee decision",
    "conduct_referred": "二次违规报仲裁 conduct referred to the committee",
    "revoke_in_trick": "劳改 revoke",
    "disqualification": "取消资格 disqualification",
    "throw_failed": "甩错牌 failed throw",
    "concealment": "藏张 concealment",
}


def violation_text(kind: str) -> str:
    """``wrong_play`` -> ``出错牌 wrong play``; an unknown kind is printed as recorded."""
    return VIOLATION_LABELS.get(kind, kind)


def tie_break_text(order: tuple[TieBreak, ...]) -> str:
    return " > ".join(f"{t.label_zh} {t.value}" for t in order)


def decision_text(d: Decision | None) -> str:
    if d is None:
        return ""
    art = f" ({d.article})" if d.article else ""
    return f"{d.label_zh} {d.label_en}{art}"


def decision_mark(d: Decision | None) -> str:
    """The short mark a bracket cell shows beside the winner for wins not at the table."""
    if d is None or not d.is_marked:
        return ""
    return {
        Decision.FORFEIT: "弃权 W/O",
        Decision.DISQUALIFICATION: "取消资格 DQ",
        Decision.COMMITTEE: "仲裁 CR",
    }[d]


def entrant_text(pair: Pair | None, slot: Slot, with_seed: bool = True) -> str:
    """A knockout entrant: ``A1 [3] 张伟 / 王芳`` when it came from a group's place."""
    text = pair_text(pair, with_seed)
    if text and slot.kind == "group":
        return f"{slot.ref}{slot.rank} {text}"
    return text


def tie_break_mark(by: TieBreak | None) -> str:
    """Which tie-break set a pair apart from pairs equal with it (``相互胜负 head-to-head``)."""
    if by is None:
        return ""
    return f"{by.label_zh} {by.value.replace('_', '-')}"


def pair_text(pair: Pair | None, with_seed: bool = True) -> str:
    if pair is None:
        return ""
    seed = f"[{pair.seed}] " if with_seed and pair.seed else ""
    club = f" ({pair.club})" if pair.club else ""
    return f"{seed}{pair.name}{club}"


def levels_text(levels: dict[int, int], a: int | None, b: int | None) -> str:
    if a is None or b is None or a not in levels or b not in levels:
        return ""
    return f"{level_name(levels[a])} : {level_name(levels[b])}"


#: 8.10 as both the results and the match report explain a forfeit's levels.
FORFEIT_LEVEL_RULE = (
    "弃权方本场计0分，按3级计入成绩 (8.10): the forfeiting side scores 0 for the match and "
    "is counted at level 3 in the results; the other side keeps the level it reached."
)


#: Short parameter names for page footers (Excel allows 255 characters per footer).
SHORT_KEYS: dict[str, str] = {
    "decks": "decks",
    "bridge_level_gap": "gap",
    "triple_lead_spares_tractors": "triple_spares",
    "last_trick": "last",
    "stage": "stage",
    "step": "step",
    "must_play_a": "mustA",
    "rotation": "rot",
    "no_bid": "nobid",
    "misplay_points_per_card": "misplay",
    "revoke_established": "revoke",
    "think_seconds": "think",
    "overrun_counts_as_warning": "overrun_warn",
    "match_minutes": "minutes",
    "at_time_out": "timeout",
    "kitty": "kitty",
    "levels": "levels",
    "fixed_trump_ranks": "fixed",
    "twos_fixed_in_three_deck": "twos",
    "bombs_beat_tractors": "bombs",
    "trump_tractor_chain": "chain",
    "throws": "throws",
    "throw_fail_points": "throwpts",
    "kitty_multiplier": "kittyx",
    "shutout_bonus": "shutout",
    "max_gain": "cap",
    "table_floor_at_zero": "floor0",
    "a_needs_dig": "Adig",
    "a_fallback": "Aback",
    "concealment": "conceal",
    "conceal_points": "concealpts",
    "race_needs_lj": "raceLJ",
}


def compact_ruleset(ruleset: Ruleset) -> str:
    """``guilin-2009: decks=4 gap=no …`` short enough for a spreadsheet footer."""

    def text(v: object) -> str:
        if v is None:
            return "none"
        return ("yes" if v else "no") if isinstance(v, bool) else str(v)

    values = ruleset.parameters()
    rest = ""
    if ruleset.name != GUILIN_2009.name:
        # A preset lists what differs from Guilin (Excel's footer holds 255 characters);
        # the Info sheet lists every parameter.
        guilin = GUILIN_2009.all_parameters()
        values = {k: v for k, v in values.items() if guilin.get(k) != v}
        rest = " (rest=guilin-2009)"
    params = " ".join(f"{SHORT_KEYS.get(k, k)}={text(v)}" for k, v in values.items())
    return f"{ruleset.name}: {params}{rest}"
