"""The page's words in both languages (Chinese by default): one table, keyed by idea."""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("zh", "en")

TEXTS: Final[dict[str, dict[str, str]]] = {
    "standings": {"zh": "积分榜", "en": "Standings"},
    "matches": {"zh": "全部比赛", "en": "All matches"},
    "find": {"zh": "找座位", "en": "Find your table"},
    "bracket": {"zh": "对阵图", "en": "Bracket"},
    "projector": {"zh": "投影", "en": "Projector"},
    "find_hint": {
        "zh": "输入姓名或拼音首字母（如 zs 找 张三）",
        "en": "Type a name or its pinyin initials (zs for 张三)",
    },
    "search": {"zh": "查找", "en": "Search"},
    "no_player": {"zh": "没有找到这个名字。", "en": "No player by that name."},
    "next_match": {"zh": "下一场", "en": "Next match"},
    "no_next": {"zh": "暂无待赛的比赛", "en": "No match waiting"},
    "table": {"zh": "桌号", "en": "Table"},
    "seat": {"zh": "座位", "en": "Seat"},
    "partner": {"zh": "搭档", "en": "Partner"},
    "opponents": {"zh": "对手", "en": "Opponents"},
    "round": {"zh": "轮次", "en": "Round"},
    "status": {"zh": "状态", "en": "Status"},
    "levels": {"zh": "级数", "en": "Levels"},
    "decided": {"zh": "结果", "en": "Result"},
    "group": {"zh": "小组", "en": "Group"},
    "not_finished": {"zh": "（未完）", "en": " (not finished)"},
    "rank": {"zh": "名次", "en": "Rank"},
    "pair": {"zh": "组合", "en": "Pair"},
    "wins": {"zh": "胜", "en": "W"},
    "losses": {"zh": "负", "en": "L"},
    "level_diff": {"zh": "级差", "en": "Lv ±"},
    "places": {"zh": "名次", "en": "Places"},
    "progress": {
        "zh": "本轮 {total} 张桌子中 {done} 张已结束",
        "en": "{done} of {total} tables finished this round",
    },
    "live": {"zh": "实时", "en": "Live"},
    "not_live_since": {"zh": "自 {time} 起未实时", "en": "Not live since {time}"},
    "updated": {"zh": "更新于 {time}", "en": "Updated {time}"},
    "no_draw": {"zh": "尚未抽签。", "en": "The draw has not been made yet."},
    "language_other": {"zh": "English", "en": "中文"},
    "champion": {"zh": "冠军", "en": "Champion"},
    "knockout": {"zh": "淘汰赛", "en": "Knockout"},
    "N": {"zh": "北", "en": "North"},
    "S": {"zh": "南", "en": "South"},
    "E": {"zh": "东", "en": "East"},
    "W": {"zh": "西", "en": "West"},
    "waiting": {"zh": "待定", "en": "waiting"},
    "ready": {"zh": "待赛", "en": "ready"},
    "playing": {"zh": "进行中", "en": "playing"},
    "held": {"zh": "待仲裁", "en": "awaiting ruling"},
    "bye": {"zh": "轮空", "en": "bye"},
    "void": {"zh": "—", "en": "—"},
}


def text(key: str, lang: str, **params: object) -> str:
    """The page's words for ``key`` in ``lang`` (unknown languages read Chinese)."""
    words = TEXTS[key]
    line = words.get(lang, words["zh"])
    return line.format(**params) if params else line
