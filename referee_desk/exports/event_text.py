"""One readable line per recorded event, for the match report's timeline."""

from __future__ import annotations

from typing import Any

from referee_desk.match.envelope import Event

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEATS = {"N": "北N", "E": "东E", "S": "南S", "W": "西W"}
SIDES = {"NS": "南北NS", "EW": "东西EW"}

TYPE_LABELS: dict[str, str] = {
    "match_opened": "开赛 opened",
    "clock_started": "计时开始 clock started",
    "clock_paused": "暂停 paused",
    "clock_resumed": "继续 resumed",
    "hand_started": "开盘 hand",
    "bid": "叫牌 bid",
    "open_bid": "明叫 open bid",
    "false_bid": "诈叫 false bid",
    "false_bid_trump": "定主 trump named",
    "bidding_closed": "定庄 bidding closed",
    "redeal": "重发 redeal",
    "trick": "出牌 trick",
    "hand_summary": "本盘结果 hand result",
    "wrong_play": "出错牌 wrong play",
    "revoke": "劳改 revoke",
    "penalty_choice": "罚则选择 penalty choice",
    "wrong_dealer": "坐庄顺序错误 wrong dealer",
    "conduct_warning": "警告 warning",
    "committee_decision": "仲裁决定 committee decision",
    "think_overrun": "超时思考 overrun",
    "forfeit": "弃权 forfeit",
    "committee_ruling": "仲裁裁定 committee ruling",
    "correction": "更正 correction",
    "note": "备注 note",
    "match_ended": "比赛结束 match ended",
    # RULES.md section 12 (the presets)
    "kitty_buried": "埋底 kitty buried",
    "throw_failed": "甩牌失败 failed throw",
    "concealment": "藏张 concealment",
}

#: Payload fields in words (a correction prints what it changed, never a raw key).
FIELD_LABELS: dict[str, str] = {
    "defenders_points_before_last": "防守方末墩前得分 defenders' points before the last trick",
    "last_trick_points": "末墩分 last-trick points",
    "last_trick_cards_per_player": "末墩每人张数 last-trick cards each",
    "last_trick_side": "末墩得主 last trick won by",
    "kitty_points": "底牌分 kitty points",
    "last_lead_shape": "末墩首出 last lead",
    "dealer": "庄家 dealer",
    "trump": "主牌 trump",
    "seat": "座位 seat",
    "side": "方 side",
    "cards": "牌 cards",
    "kind": "类型 kind",
    "text": "说明 text",
    "decision": "决定 decision",
    "points": "分 points",
    "winner": "胜方 winner",
    "reason": "原因 reason",
    "plays": "出牌 plays",
    "choice": "选择 choice",
}


def field_label(key: str) -> str:
    """A payload field in words; an unknown one as its key (still readable)."""
    return FIELD_LABELS.get(key, key.replace("_", " "))


#: Event types that record a violation (highlighted in the report).
VIOLATION_TYPES = frozenset(
    {
        "open_bid",
        "false_bid",
        "wrong_play",
        "revoke",
        "wrong_dealer",
        "conduct_warning",
        "think_overrun",
        "forfeit",
        "committee_decision",
        "throw_failed",
        "concealment",
    }
)

#: Unit shapes (identical cards, ranks) in words, for the last lead (12.5).
_SHAPES = {(1, 1): "单张 single", (2, 1): "对子 pair", (3, 1): "三张 triple", (4, 1): "炸弹 bomb"}


def shape_text(shape: Any) -> str:
    """``[[2, 3]]`` -> ``3连对拖拉机 tractor of 3 pairs``; several units are a throw (12.4)."""
    units = [tuple(int(x) for x in u) for u in (shape or [])]
    words = []
    for each, ranks in units:
        if (each, ranks) in _SHAPES:
            words.append(_SHAPES[(each, ranks)])
        elif each == 4:
            words.append(f"{ranks}连炸推土机 bulldozer of {ranks}")
        elif each == 3:
            words.append(f"{ranks}连三张拖拉机 tractor of {ranks} triples")
        else:
            words.append(f"{ranks}连对拖拉机 tractor of {ranks} pairs")
    if len(words) > 1:
        return "甩牌 throw: " + " + ".join(words)
    return words[0] if words else ""


CONCEALMENT_CHOICES = {
    "A": "A 本盘结束 the hand ends",
    "B": "B 加减分，继续打 ± points, play continues",
}


def card_text(card: str) -> str:
    """``H10`` -> ``♥10``; jokers as 大王/小王."""
    c = str(card).upper()
    if c == "BJ":
        return "大王"
    if c == "LJ":
        return "小王"
    if c and c[0] in SUITS:
        return SUITS[c[0]] + c[1:]
    return str(card)


def cards_text(cards: Any) -> str:
    return " ".join(card_text(c) for c in (cards or []))


def trump_text(trump: str | None) -> str:
    if trump in (None, "NT"):
        return "无主 NT"
    return SUITS.get(str(trump), str(trump))


def describe(event: Event) -> str:
    p = event.payload
    t = event.type
    seat = SEATS.get(str(p.get("seat")), str(p.get("seat", "")))
    side = SIDES.get(str(p.get("side")), str(p.get("side", "")))
    if t == "match_opened":
        pairs = p.get("pairs", {})
        where = f"{p.get('round', '')} · {p.get('table', '')}"
        return f"{where} · NS {pairs.get('NS', '')} / EW {pairs.get('EW', '')}"
    if t == "clock_paused":
        return str(p.get("reason", ""))
    if t == "hand_started":
        return f"庄 dealer {SEATS.get(str(p.get('dealer')), '抢庄 race')}"
    if t == "bid":
        return f"{seat} {p.get('kind', '')} {cards_text(p.get('cards'))}"
    if t == "bidding_closed":
        trump = p.get("trump")  # 无主 NT, not 主 无主
        trump_is = trump_text(trump) if trump in (None, "NT") else f"主 {trump_text(trump)}"
        return f"庄 {SEATS.get(str(p.get('dealer')), '')} · {trump_is}"
    if t == "false_bid_trump":
        return f"{seat} → {trump_text(p.get('trump'))}"
    if t == "trick":
        plays = " | ".join(
            f"{SEATS.get(x.get('seat'), x.get('seat'))} {cards_text(x.get('cards'))}"
            + (" (垫)" if x.get("discarded") else "")
            for x in p.get("plays", [])
        )
        return ("末墩 last " if p.get("last") else "") + plays
    if t == "hand_summary":
        last = SIDES.get(p.get("last_trick_side"), "")
        text = (
            f"防守方 {p.get('defenders_points_before_last')} 分, 末墩 {p.get('last_trick_points')}"
            f" 分 × {p.get('last_trick_cards_per_player')} 张, {last}"
        )
        if p.get("kitty_points") is not None:
            text += f", 底牌 kitty {p['kitty_points']} 分"
        if p.get("last_lead_shape"):
            text += f", 末墩首出 last lead {shape_text(p['last_lead_shape'])}"
        return text
    if t == "kitty_buried":
        if p.get("cards"):
            return f"{seat} 埋底 buries {cards_text(p.get('cards'))}"
        return f"{seat} 埋底 buries {p.get('points')} 分 points"
    if t == "throw_failed":
        shown_by = SEATS.get(str(p.get("shown_by")), str(p.get("shown_by", "")))
        forced = f" → 须出 must play {cards_text(p['forced'])}" if p.get("forced") else ""
        return (
            f"{seat} 甩 throws {cards_text(p.get('thrown'))}; {shown_by} 亮 shows "
            f"{cards_text(p.get('shown'))}{forced}"
        )
    if t == "concealment":
        chooser = SEATS.get(str(p.get("chooser")), str(p.get("chooser", "")))
        choice = CONCEALMENT_CHOICES.get(str(p.get("choice")), str(p.get("choice", "")))
        return f"{seat} 藏张 conceals; {chooser} 选 chooses {choice}"
    if t == "wrong_play":
        return f"{seat} 亮出 {p.get('cards_exposed')} 张 {cards_text(p.get('cards'))}".strip()
    if t == "revoke":
        return f"{seat} {p.get('kind', '')}"
    if t == "penalty_choice":
        return f"{seat} 选 {p.get('choice')}"
    if t in ("conduct_warning", "think_overrun"):
        seconds = f" {p['seconds']} s" if p.get("seconds") else ""
        return f"{seat} {p.get('text', '')}{seconds}"
    if t == "committee_decision":
        return f"{side} {p.get('decision', '')}: {p.get('text', '')}"
    if t == "forfeit":
        return f"{side} {p.get('text', '')}"
    if t == "committee_ruling":
        changes = p.get("level_changes") or {}
        extra = ", ".join(f"{SIDES.get(k, k)} {v:+d}" for k, v in changes.items())
        return f"{p.get('text', '')}" + (f" [{extra}]" if extra else "")
    if t == "correction":
        return f"更正 #{p.get('target_seq')} {p.get('action')}: {p.get('reason', '')}"
    if t == "note":
        about = f" (#{p['about_seq']})" if p.get("about_seq") else ""
        return f"{p.get('text', '')}{about}"
    if t == "match_ended":
        return f"{p.get('reason', '')} → {SIDES.get(p.get('winner'), p.get('winner'))}"
    if t in ("open_bid", "false_bid", "wrong_dealer"):
        return seat
    if t == "redeal":
        return str(p.get("reason", ""))
    return ""
