"""The page's words, Chinese first, English on request (``?lang=en``)."""

from __future__ import annotations

import re

from referee_desk.tournament.model import Decision
from referee_desk.tournament.state import Status

WORDS: dict[str, tuple[str, str]] = {
    "overview": ("赛况", "Now"),
    "standings": ("积分", "Standings"),
    "bracket": ("对阵图", "Bracket"),
    "matches": ("全部比赛", "All matches"),
    "find": ("找座位", "Find your table"),
    "projector": ("投影", "Projector"),
    "board": ("桌况（组委会）", "Table board (organizer)"),
    "find_hint": ("输入姓名或拼音首字母，如 zs", "Type a name or pinyin initials, e.g. zs"),
    "search": ("查找", "Search"),
    "no_one": ("没有找到这个名字", "No player of that name"),
    "tables_finished": ("{done}/{total} 桌已结束", "{done} of {total} tables finished"),
    "table": ("桌", "Table"),
    "match": ("比赛", "Match"),
    "round": ("轮次", "Round"),
    "ns": ("南北", "N–S"),
    "ew": ("东西", "E–W"),
    "levels": ("级数", "Levels"),
    "status": ("状态", "Status"),
    "decided": ("胜负方式", "Decided by"),
    "events": ("记录条数", "Events"),
    "rank": ("名次", "Rank"),
    "pair": ("组合", "Pair"),
    "played": ("场", "Pl"),
    "wins": ("胜", "W"),
    "losses": ("负", "L"),
    "diff": ("级差", "Diff"),
    "group": ("{name}组", "Group {name}"),
    "places": ("名次", "Places"),
    "next_match": ("下一场", "Next match"),
    "seat": ("座位", "Seat"),
    "partner": ("搭档", "Partner"),
    "opponents": ("对手", "Opponents"),
    "no_next": ("暂无待赛比赛", "No match to play now"),
    "no_draw": ("尚未抽签", "No draw yet"),
    "not_read": ("尚未读到赛事", "The tournament is not read yet"),
    "live": ("实时", "Live"),
    "not_live": ("{since} 起未实时更新", "Not live since {since}"),
    "not_live_never": ("未实时更新", "Not live"),
    "last_heard": ("最后收到", "Last heard"),
    "quiet": ("久未联系", "quiet"),
    "conflicts": ("冲突", "Conflicts"),
    "laptops": ("电脑（裁判台密钥）", "Laptops (desk key)"),
    "waiting": ("未上传条数", "Not yet on the server"),
    "state": ("状态", "State"),
    "behind": ("落后于服务器：", "behind the server:"),
    "restored": ("由备份恢复：", "restored from a backup:"),
    "never_heard": ("从未联系", "never heard"),
    "shared": ("多台电脑共用本桌地址", "several laptops share this table's address"),
    "offline": ("离线", "offline"),
    "playing_now": ("比赛中", "playing"),
    "idle": ("空闲", "idle"),
    "settled_conflicts": ("已解决的冲突", "Settled conflicts"),
    "N": ("北", "N"),
    "S": ("南", "S"),
    "E": ("东", "E"),
    "W": ("西", "W"),
    "lang_other": ("English", "中文"),
}


def word(key: str, lang: str, **values: object) -> str:
    zh, en = WORDS[key]
    return (en if lang == "en" else zh).format(**values)


def status_word(value: str, lang: str) -> str:
    status = Status(value)
    return status.value.replace("_", " ") if lang == "en" else status.label_zh


def decision_word(value: str, lang: str) -> str:
    if not value:
        return ""
    d = Decision(value)
    return d.label_en if lang == "en" else d.label_zh


_BILINGUAL = re.compile(r" (?=[A-Za-z0-9])")


def in_language(label: str, lang: str) -> str:
    """A bilingual label of the tournament layer ("半决赛 Semifinal", "小组赛第1轮 group
    round 1", joined parts by " · ") in the page's language only."""
    parts = []
    for part in label.split(" · "):
        cut = next(
            (m.start() for m in _BILINGUAL.finditer(part) if not part[: m.start()].isascii()),
            None,
        )
        parts.append(part if cut is None else part[:cut] if lang == "zh" else part[cut + 1 :])
    return " · ".join(parts)
