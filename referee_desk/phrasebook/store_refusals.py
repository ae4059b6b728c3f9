"""The phrases of the store's refusals: one English and one Chinese template per key.

Dotted ``store.*`` keys, raised as ``StoreError(key=..., params=...)`` (or attached with
``StoreError.keyed`` where a site still writes its own English), with the actions and
the reasons a refusal of people's changes and events names (``STORE_ACTIONS``,
``ACCESS_REASONS``). Apart from the match layer's (``refusals.py``) so each book stays
a size to read; ``phrasebook`` exports both.
"""

from __future__ import annotations

#: What a refused change of people or assignments was (``store/people.py``): the
#: ``{action:access_action}`` of a store refusal names one of these with its own params;
#: the English is the action the file's refusal log writes.
STORE_ACTIONS: dict[str, tuple[str, str]] = {
    "register": ("register {name} as {role}", "登记 {name} 为{role:person_role}"),
    "assign": ("assign {name} to match {match}", "指派 {name} 担任比赛 {match} 的裁判"),
    "lock": ("lock match {match}", "锁定比赛 {match}"),
    "import": (
        "import {type} into match {match} (event {seq})",
        "导入比赛 {match} 的第 {seq} 条事件（{type:event}）",
    ),
}

#: Why a person may not add an event to a match now (``People.authorize``), by key, with
#: params match, type (the event's), name and role (of who is signed in) and referee (the
#: match's). The English is the reason the file's refusal log writes; a refusal at the
#: desk says it of its match (the ``store.*`` keys below), an import of its event
#: (``store.import_refused``, ``{why:access_reason}``).
ACCESS_REASONS: dict[str, tuple[str, str]] = {
    "store.session_forged": (
        "this sign-in was not issued by this file (sign in again)",
        "这次登录不是在此文件上完成的（请重新登录）",
    ),
    "store.committee_needed": (
        "only the arbitration committee, signed in, can enter a ruling or decision",
        "只有已登录的仲裁委员会才能录入裁决或决定",
    ),
    "store.sign_in_needed": (
        "sign in with your PIN to enter events",
        "录入事件须先用 PIN 登录",
    ),
    "store.referee_enters_this": (
        "the committee does not enter {type} events; the referee does",
        "仲裁委员会不录入“{type:event}”事件，由裁判录入",
    ),
    "store.not_a_referee": (
        "{name} ({role}) may not enter match events",
        "{name}（{role:person_role}）不能录入比赛事件",
    ),
    "store.not_the_referee": (
        "{name} is not this match's referee ({referee} is)",
        "{name} 不是这场比赛的裁判（裁判是 {referee}）",
    ),
    "store.locked_committee_only": (
        "the match is locked; only the arbitration committee can add a ruling",
        "比赛已锁定；只有仲裁委员会可以补充裁决",
    ),
    "store.locked": (
        "the match is locked; only notes and committee rulings can follow, not {type}",
        "比赛已锁定；此后只能记录备注和仲裁裁决，不能记录“{type:event}”",
    ),
    "store.sign_in_to_note": (
        "sign in with your PIN to add a note",
        "添加备注须先用 PIN 登录",
    ),
    "store.locked_not_the_referee": (
        "the match is locked; {name} is not this match's referee",
        "比赛已锁定；{name} 不是这场比赛的裁判",
    ),
}

#: Store keys → (English, Chinese) templates with ``{param}``. A raise site passes the
#: key and params only (``StoreError(key=..., params=...)``): its English line, the
#: error's ``str()``, is the English here; ``keyed`` sites still write their own. The
#: Chinese says what the English says, naming the same params (tests/store/).
STORE_REFUSALS: dict[str, tuple[str, str]] = {
    # -- sign-in and people -----------------------------------------------------------
    "store.wrong_pin": ("sign in as {name}: wrong name or PIN", "以 {name} 登录：姓名或 PIN 不对"),
    "store.sign_in_needs_writable": (
        "sign in as {name}: this file is open read-only, so wrong PINs could not be counted",
        "以 {name} 登录：此文件以只读方式打开，无法记下输错 PIN 的次数",
    ),
    "store.sign_in_not_countable": (
        "sign in as {name}: wrong PINs cannot be counted here ({error}); sign-in refused",
        "以 {name} 登录：此处无法记下输错 PIN 的次数（{error}），拒绝登录",
    ),
    "store.pin_locked_out": (
        "sign in as {name}: {failures} wrong PINs in a row; try again in {seconds} seconds",
        "以 {name} 登录：已连续 {failures} 次输错 PIN；请 {seconds} 秒后再试",
    ),
    "store.wrong_role": (
        "sign in as {name}: {name} is registered as {role}, not {wanted}",
        "以 {name} 登录：{name} 登记的身份是{role:person_role}，不是{wanted:person_role}",
    ),
    # -- who may change people, assignments and locks (``People._refuse``) --------------
    "store.organizer_needed": (
        "{action:access_action}: an organizer must sign in first",
        "{action:access_action}：须先由主办方登录",
    ),
    "store.organizer_only": (
        "{action:access_action}: {who} is {who_role}; only the organizer may do this",
        "{action:access_action}：{who} 的身份是{who_role:person_role}；只有主办方可以这样做",
    ),
    "store.first_committee_only": (
        "{action:access_action}: only the first committee member registers without the organizer",
        "{action:access_action}：只有第一位仲裁委员可以不经主办方自行登记",
    ),
    "store.already_registered": (
        "{action:access_action}: {name} is registered already",
        "{action:access_action}：{name} 已经登记过了",
    ),
    "store.sign_in_not_issued": (
        "{action:access_action}: this sign-in was not issued by this file",
        "{action:access_action}：这次登录不是在此文件上完成的",
    ),
    "store.sign_in_to_lock": (
        "{action:access_action}: sign in with your PIN to lock a match",
        "{action:access_action}：锁定比赛须先用 PIN 登录",
    ),
    "store.lock_not_the_referee": (
        "{action:access_action}: {who} is not this match's referee",
        "{action:access_action}：{who} 不是这场比赛的裁判",
    ),
    # -- who may add an event (``People.authorize``): at the desk, an import ---------
    # (the Chinese says 比赛 once: "比赛 m1：已锁定", not "比赛 m1：比赛已锁定")
    **{
        key: (f"match {{match}}: {en}", f"比赛 {{match}}：{zh.removeprefix('比赛')}")
        for key, (en, zh) in ACCESS_REASONS.items()
    },
    "store.import_refused": (
        "{action:access_action}: {why:access_reason}",
        "{action:access_action}：{why:access_reason}",
    ),
    # -- locks ------------------------------------------------------------------------
    "store.nothing_to_lock": ("match {match}: no events to lock", "比赛 {match} 没有可锁定的记录"),
    "store.imported_seal_unverified": (
        "{path}: match {match}: the desk's lock does not verify ({reason})",
        "{path}：比赛 {match}：裁判台的封存未通过校验（{reason}）",
    ),
    "store.imported_seal_refused": ("match {match}: {reason}", "比赛 {match}：{reason}"),
    "store.imported_seal_other_record": (
        "match {match}: the record here ends at event {head}, the desk locked it at event "
        "{sealed} (not the locked record)",
        "比赛 {match}：未保留裁判台的封存：此处的记录止于第 {head} 条事件，"
        "裁判台锁定的是第 {sealed} 条（不是锁定的那份记录）",
    ),
    # -- the file's keys and guard ----------------------------------------------------
    "store.nothing_signed": ("{path}: nothing is signed in it yet", "{path}：文件中还没有任何签名"),
    "store.untrusted": ("{path}: cannot be trusted: {problem}", "{path}：文件不可信：{problem}"),
    "store.untrusted_not_accepted": (
        "{path}: cannot be trusted: {problem}",
        "{path}：文件不可信：{problem}",
    ),
    "store.guard_unsound": (
        "{path}: nothing is signed over a record that does not verify: {problem}",
        "{path}：记录未通过校验，不能在其上签名：{problem}",
    ),
    "store.organizer_key_rotation": (
        "{path}: the file already has organizer key {current}; rotating it needs that key",
        "{path}：文件已有主办方密钥 {current}；要更换它，须用这把密钥",
    ),
    "store.not_the_file_key": (
        "{path}: {key} is not the file's key",
        "{path}：{key} 不是此文件的密钥",
    ),
    "store.unknown_key": ("{path}: no registered key {key}", "{path}：没有登记过密钥 {key}"),
    # -- this computer's keys ---------------------------------------------------------
    "store.desk_key_unreadable": (
        "{path}: the desk's signing key cannot be read ({error})",
        "{path}：无法读取本机的签名密钥（{error}）",
    ),
    "store.desk_key_not_ed25519": ("{path}: not an Ed25519 key", "{path}：不是 Ed25519 密钥"),
    "store.desk_key_unwritable": (
        "{path}: cannot store the desk's signing key ({error})",
        "{path}：无法保存本机的签名密钥（{error}）",
    ),
    "store.desk_key_vanished": (
        "{path}: the desk's signing key vanished while it was made",
        "{path}：本机的签名密钥在生成时不见了",
    ),
    "store.no_organizer_key": (
        "{path}: no organizer key on this computer",
        "{path}：本机上没有主办方密钥",
    ),
    "store.organizer_key_not_ed25519": (
        "{path}: not an Ed25519 key",
        "{path}：不是 Ed25519 密钥",
    ),
    "store.organizer_key_exists": (
        "{path}: an organizer key exists already",
        "{path}：主办方密钥已存在",
    ),
    "store.organizer_key_unwritable": (
        "{path}: cannot store the organizer key ({error})",
        "{path}：无法保存主办方密钥（{error}）",
    ),
    "store.passphrase_too_short": (
        "the organizer key's passphrase needs at least {minimum} characters",
        "主办方密钥的密码至少需要 {minimum} 个字符",
    ),
    "store.wrong_passphrase": ("wrong passphrase for the organizer key", "主办方密钥的密码不对"),
    # -- opening and damage -----------------------------------------------------------
    "store.no_such_file": ("{file}: no such tournament file", "{file}：没有这个赛事文件"),
    "store.is_a_folder": (
        "{file}: is a folder, not a tournament file",
        "{file}：这是文件夹，不是赛事文件",
    ),
    "store.not_a_regular_file": (
        "{file}: not a regular file (a device, pipe or socket), not a tournament file",
        "{file}：不是普通文件（是设备、管道或套接字），不是赛事文件",
    ),
    "store.unreadable": ("{file}: cannot be read ({error})", "{file}：无法读取（{error}）"),
    "store.not_a_tournament_file": (
        "{file}: not a Referee Desk tournament file",
        "{file}：不是裁判台的赛事文件",
    ),
    "store.not_a_tournament_file_sqlite": (
        "{file}: not a Referee Desk tournament file ({error})",
        "{file}：不是裁判台的赛事文件（{error}）",
    ),
    "store.sqlite_not_a_tournament_file": (
        "{file}: an SQLite file, but not a Referee Desk tournament file",
        "{file}：是 SQLite 文件，但不是裁判台的赛事文件",
    ),
    "store.read_only_with_wal": (
        "{file}: read-only, with recent events still in {wal}; copy both files to a folder "
        "you can write to and open the copy",
        "{file}：文件只读，最近的事件还在 {wal} 中；请把这两个文件复制到可以写入的文件夹，"
        "再打开副本",
    ),
    "store.server_address": (
        "{address}: a server address, not a tournament file",
        "{address}：这是服务器地址，不是赛事文件",
    ),
    # -- saving (``StoreWriteError``: not saved, the record unchanged) -----------------
    "store.not_saved": (
        "not saved: the file could not be written ({detail}): {file}; the record is unchanged",
        "未保存：文件无法写入（{detail}）：{file}；记录没有改变",
    ),
    "store.not_saved_disk_full": (
        "not saved: the disk is full: {file}; the record is unchanged",
        "未保存：磁盘已满：{file}；记录没有改变",
    ),
    "store.not_saved_read_only": (
        "not saved: the file is read-only: {file}; the record is unchanged",
        "未保存：文件是只读的：{file}；记录没有改变",
    ),
    "store.read_only": ("not saved: the file is read-only: {file}", "未保存：文件是只读的：{file}"),
    "store.disk_was_full": (
        "not saved: the disk was full when {file} was opened; free some space and open it again",
        "未保存：打开 {file} 时磁盘已满；请腾出空间后重新打开",
    ),
    "store.read_only_disk_was_full": (
        "not saved: the disk was full when {file} was opened; free some space and open it "
        "again (so it opened for reading only)",
        "未保存：打开 {file} 时磁盘已满；请腾出空间后重新打开（因此以只读方式打开）",
    ),
    "store.not_created_disk_full": (
        "not created: the disk is full: {file}",
        "未创建：磁盘已满：{file}",
    ),
    "store.damaged_match": (
        "{path}: damaged: match {match}: {detail}",
        "{path}：文件已损坏：比赛 {match}：{detail}",
    ),
    "store.damaged_integrity": (
        "{path}: damaged: SQLite integrity check: {detail}",
        "{path}：文件已损坏：SQLite 完整性检查：{detail}",
    ),
    "store.damaged_chain": ("{path}: damaged: {problem}", "{path}：文件已损坏：{problem}"),
    "store.events_missing": (
        "{path}: damaged: {problem}",
        "{path}：文件已损坏，已见证的事件缺失：{problem}",
    ),
    "store.damaged_sqlite": (
        "{file}: damaged: SQLite reports: {error}",
        "{file}：文件已损坏：SQLite 报告：{error}",
    ),
    "store.damaged_unreadable": (
        "{file}: damaged: unreadable ({error})",
        "{file}：文件已损坏：无法读取（{error}）",
    ),
    "store.backup_damaged": (
        "backup {backup} is damaged too: {problem}",
        "备份 {backup} 也已损坏：{problem}",
    ),
}
