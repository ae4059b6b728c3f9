"""Words at the desk for the server's troubles and a match's conflict, Chinese or English.

libpq's own text ("consuming input failed: server closed the connection unexpectedly",
"FATAL: the database system is starting up") is for a log, not for a referee: ``trouble``
sorts it into a few cases and ``say`` words each; ``conflict_words`` names the match, the
event and the reason. One phrasebook for the desk's status bar and ``sync --follow``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from referee_desk.store.postgres.marks import Conflict

#: key → (English, Chinese); ``{name}`` fields filled by ``say``.
PHRASES: Mapping[str, tuple[str, str]] = {
    "server_stopped": (
        "the server stopped or dropped the connection; retrying (nothing is lost: the desk "
        "keeps recording and sends it when the server is back)",
        "服务器已停止或断开了连接，正在重试（不会丢失：本机照常记录，服务器恢复后自动上传）",
    ),
    "server_starting": (
        "the server is starting up (or shutting down); retrying in a moment",
        "服务器正在启动（或正在关闭），稍后自动重试",
    ),
    "server_unreachable": (
        "cannot reach the server {server} (is its PostgreSQL running, and this desk on the "
        "hall network?); retrying",
        "连不上服务器 {server}（请检查服务器是否在运行、本机是否连在赛场网络上），正在重试",
    ),
    "server_password": (
        "the server refused this desk's login: wrong password ({server}); check the address "
        "on the table's sheet",
        "服务器拒绝了本桌的登录：密码不对（{server}）；请核对本桌地址单上的地址",
    ),
    "server_login": (
        "the server refused this desk's login ({server}): check the table's address",
        "服务器拒绝了本桌的登录（{server}）：请核对本桌的地址",
    ),
    "server_no_password": (
        "no password for {server}: keep it in the pass file with "
        "`referee-desk server remember {server}`",
        "没有 {server} 的密码：请用 `referee-desk server remember {server}` 把它存进密码文件",
    ),
    "server_pass_file": (
        "the pass file can be read by other users of this computer: {detail}",
        "密码文件别的用户也能读：{detail}",
    ),
    "server_other": ("the server: {detail}", "服务器：{detail}"),
    "synced": ("synced", "已同步"),
    "waiting": ("{n} events waiting", "{n} 条待上传"),
    "never": ("not pushed yet ({n} events)", "尚未上传（{n} 条）"),
    "conflict": (
        "conflict: match {match}, event {seq}: {why}",
        "冲突：比赛 {match}，第 {seq} 条：{why}",
    ),
    "also_waiting": ("{n} other events waiting", "另有 {n} 条待上传"),
    "fork": (
        "this desk's record differs from the server's from this event on; refused, never "
        "merged: the organizer settles it (server resolve)",
        "本机记录从这一条起与服务器的记录不同（分叉）；未上传、不会合并，"
        "由裁判长裁定（server resolve）",
    ),
    "fork_settled": (
        "the organizer kept the server's record (this desk's branch is archived on the "
        "server); take it: referee-desk sync FILE URL --take-server {match}",
        "裁判长已裁定保留服务器上的记录（本机的分支已存档在服务器上）；"
        "取回服务器记录：referee-desk sync 文件 地址 --take-server {match}",
    ),
    "claimed": (
        "the match is not this table's on the server (another table holds it, or it is not "
        "published yet); nothing sent: ask the organizer",
        "服务器上这场比赛不属于本桌（别的桌持有，或尚未发布）；未上传，请联系裁判长",
    ),
    "behind": (
        "the server holds more of this match than this file (restored from a backup?); "
        "nothing sent: take the server's record",
        "服务器上这场比赛的记录比本机多（本机文件是从备份恢复的？）；未上传，请取回服务器记录",
    ),
    "seal": (
        "the server did not take the lock: this desk's key is not approved yet (the "
        "organizer runs server keys --approve); the events are on the server",
        "服务器未接受锁定签名：本机密钥尚未批准（裁判长运行 server keys --approve）；"
        "比赛记录已在服务器上",
    ),
    "refused": ("the server refused it: {detail}", "服务器拒收：{detail}"),
    # The organizer's table board (``tournament.table_board``).
    "board_title": ("Tables", "桌况"),
    "board_table": ("Table", "桌"),
    "board_laptops": ("Desk (key)", "电脑（密钥）"),
    "board_heard": ("Last heard", "最后联系"),
    "board_waiting": ("Not on the server", "未上传"),
    "board_state": ("State", "状态"),
    "board_conflicts": ("Conflicts", "冲突"),
    "board_never": ("never", "从未联系"),
    "board_seconds": ("{n} s ago", "{n} 秒前"),
    "board_minutes": ("{n} min ago", "{n} 分钟前"),
    "board_offline": ("OFFLINE", "离线"),
    "board_playing": ("playing", "比赛中"),
    "board_idle": ("idle", "空闲"),
    "board_shared": ("{n} laptops on one address", "{n} 台电脑共用本桌地址"),
    "board_behind": ("behind the server: {matches}", "落后于服务器：{matches}"),
    "board_restored": ("restored from a backup: {matches}", "从备份恢复：{matches}"),
    "board_open": ("{n} open", "{n} 个未决"),
    "board_settled": ("{n} settled", "{n} 个已裁定"),
    "board_summary": (
        "{tables} tables: {offline} offline, {open} open conflicts, {settled} settled",
        "共 {tables} 桌：{offline} 桌离线，{open} 个冲突未决，{settled} 个已裁定",
    ),
    "board_open_title": ("Open conflicts", "未决冲突"),
    "board_settled_title": ("Settled conflicts", "已裁定的冲突"),
    "board_conflict_line": (
        "{kind} match {match}, event {seq}, from {desk} at {at}",
        "{kind}：比赛 {match}，第 {seq} 条，{desk} 报告于 {at}",
    ),
    "kind_fork": ("fork", "分叉"),
    "kind_claimed": ("claimed", "归属"),
    "kind_refused": ("refused", "拒收"),
    "kind_seal": ("lock", "锁定"),
    "kind_behind": ("behind", "落后"),
}


def language(requested: str | None = None) -> str:
    """``zh_CN`` (the default) or ``en``: as requested, else ``$REFEREE_DESK_LANG``."""
    chosen = requested or os.environ.get("REFEREE_DESK_LANG", "") or "zh_CN"
    return "en" if chosen.lower().startswith("en") else "zh_CN"


def say(key: str, lang: str = "zh_CN", **params: Any) -> str:
    english, chinese = PHRASES[key]
    return (chinese if lang == "zh_CN" else english).format(**params)


def trouble(text: str) -> str:
    """The phrase key of a connection failure's text (libpq's, or ours around it)."""
    low = text.lower()
    if "starting up" in low or "shutting down" in low or "in recovery mode" in low:
        return "server_starting"
    if (
        "closed the connection" in low
        or "terminating connection" in low
        or "consuming input failed" in low
        or "lost the server" in low
        or "server conn crashed" in low
        or "connection is closed" in low
        or "the connection is lost" in low
    ):
        return "server_stopped"
    if "no password for this address" in low:
        return "server_no_password"
    if "the pass file" in low and "chmod 600" in low:
        return "server_pass_file"
    if "wrong password" in low or "password authentication failed" in low:
        return "server_password"
    if "refused user" in low or "does not let this computer" in low:
        return "server_login"
    if (
        "cannot reach" in low
        or "connection refused" in low
        or "timeout" in low
        or "could not translate" in low
    ):
        return "server_unreachable"
    return "server_other"


def trouble_words(text: str, lang: str = "zh_CN", server: str = "") -> str:
    """A connection failure in the desk's words (the raw text only for unknown cases)."""
    key = trouble(text)
    shown = server or (text.split(": ", 1)[0] if text.startswith("postgres") else "")
    return say(key, lang, server=shown, detail=text)


def conflict_words(conflict: Conflict, lang: str = "zh_CN") -> str:
    """One line naming the match, the event and why, in the desk's words."""
    if conflict.kind == "fork" and conflict.reason.startswith("settled:"):
        why = say("fork_settled", lang, match=conflict.match_id)
    elif conflict.kind in ("fork", "claimed", "behind", "seal"):
        why = say(conflict.kind, lang)
    else:
        why = say("refused", lang, detail=conflict.reason)
    return say("conflict", lang, match=conflict.match_id, seq=conflict.seq, why=why)
