"""The phrases of derived consequences: one English and one Chinese template per key.

Keys are plain words (``last_trick_declarers``); a consequence (of ``rules`` or of
the fold) stores its key and args, and its English ``text`` is rendered from here.
"""

from __future__ import annotations

#: key -> (English template, Chinese template).
CONSEQUENCES: dict[str, tuple[str, str]] = {
    # -- 7.1-7.3 and the ladder (rules.result) ------------------------------------------
    "last_trick_declarers": (
        "{DEC:role} win the last trick: −{points}×{cards} = −{dig}; "
        "{DEF:role} {before:num} → {final:num}",
        "{DEC:role}赢得最后一轮（反抠）：−{points}×{cards} = −{dig}；"
        "{DEF:role}得分 {before:num} → {final:num}",
    ),
    "last_trick_no_points": (
        "the last trick holds no points: {DEF:role} stay at {final:num}",
        "最后一轮无分：{DEF:role}得分仍为 {final:num}",
    ),
    "last_trick_defenders": (
        "{DEF:role} win the last trick: +{points}×{cards} = +{dig}; "
        "{DEF:role} {before:num} → {final:num}",
        "{DEF:role}赢得最后一轮（抠底）：+{points}×{cards} = +{dig}；"
        "{DEF:role}得分 {before:num} → {final:num}",
    ),
    "last_trick_defenders_bonus": (
        "{DEF:role} win the last trick: +{points} + {points}×{cards} = +{gain} "
        "(last_trick=bonus); {DEF:role} {before:num} → {final:num}",
        "{DEF:role}赢得最后一轮（抠底）：+{points} + {points}×{cards} = +{gain}"
        "（另计本轮分）；{DEF:role}得分 {before:num} → {final:num}",
    ),
    "kitty_defenders": (
        "{DEF:role} win the last trick: +{points} in the trick, kitty {kitty}×{m} = +{dig} "
        "(抠底); {DEF:role} {before:num} → {final:num}",
        "{DEF:role}赢得最后一轮（抠底）：本轮 +{points}，底牌 {kitty}×{m} = +{dig}；"
        "{DEF:role}得分 {before:num} → {final:num}",
    ),
    "kitty_declarers": (
        "{DEC:role} win the last trick: the kitty ({kitty}) is not dug; "
        "{DEF:role} stay at {final:num}",
        "{DEC:role}赢得最后一轮：底牌（{kitty}分）不计；{DEF:role}得分仍为 {final:num}",
    ),
    "table_floor": (
        "{DEF:role} {final:num} count as 0 for the result table",
        "{DEF:role}得分 {final:num} 按 0 分计算升级",
    ),
    "shutout_bonus": (
        "shutout (大光): {DEC:role} {bonus:signed} more",
        "大光：{DEC:role}再升 {bonus} 级",
    ),
    "max_gain": (
        "{role:role} {gain:signed} capped at {cap:signed}",
        "{role:role}升 {gain} 级，最多升 {cap} 级",
    ),
    "a_fallback": (
        "{role:role} won at A without a dig since reaching A: back to {after:level}",
        "{role:role}打A未曾抠底：退回到 {after:level}",
    ),
    "stage_take": (
        "{DEF:role} {final:num} ≥ {stage} → {DEF:role} {b:signed}, take the deal (上台)",
        "{DEF:role}得分 {final:num} ≥ {stage} → {DEF:role}升 {b} 级，上台",
    ),
    "stage_keep": (
        "{DEF:role} {final:num} → {DEC:role} {gain:signed}, keep the deal (连庄)",
        "{DEF:role}得分 {final:num} → {DEC:role}升 {gain} 级，连庄",
    ),
    "levels_up_keep": (
        "{role:role} {gain:signed}, keep the deal",
        "{role:role}升 {gain} 级，连庄",
    ),
    "levels_up_take": (
        "{role:role} {gain:signed}, take the deal",
        "{role:role}升 {gain} 级，上台",
    ),
    "pass_a": (
        "{role:role} pass A (打过A) and win the match",
        "{role:role}打过A，赢得比赛",
    ),
    "cap_at_a": (
        "{role:role} at {before:level} {gain:signed} stop at {after:level}: "
        "no gain takes a side past A (A must be played)",
        "{role:role}在 {before:level} 级升 {gain} 级，止于 {after:level}：升级不能越过A（必须打A）",
    ),
    "level_change": (
        "{role:role} level {before:level} → {after:level}",
        "{role:role}级 {before:level} → {after:level}",
    ),
    "revoke_b": (
        "{delta:signed} to {DEF:role}: {before:num} → {final:num}",
        "{DEF:role}得分 {delta:signed}：{before:num} → {final:num}",
    ),
    # -- the hand (match.fold) -------------------------------------------------------------
    # -- the presets (RULES 12; seeds 001 and 002) ---------------------------------------
    "kitty_buried": (
        "{seat:seat} (dealer) buries the kitty: {cards} cards, {points} points (12.5)",
        "{seat:seat}（庄家）埋底：{cards} 张，{points} 分（12.5）",
    ),
    "throw_failed": (
        "{seat:seat} throws {thrown:cards}; {shown_by:seat} shows {shown:cards}: the throw fails, "
        "{seat:seat} leads only {forced:cards} (12.4)",
        "{seat:seat}甩牌 {thrown:cards}；{shown_by:seat}亮出 {shown:cards}：甩牌失败，"
        "{seat:seat}只出 {forced:cards}（12.4）",
    ),
    "throw_failed_points": (
        "{seat:seat} throws {thrown:cards}; {shown_by:seat} shows {shown:cards}: the throw fails, "
        "{seat:seat} leads only {forced:cards}; {delta:signed} to {DEF:role} (12.4)",
        "{seat:seat}甩牌 {thrown:cards}；{shown_by:seat}亮出 {shown:cards}：甩错牌，"
        "{seat:seat}只出 {forced:cards}；{DEF:role}得分 {delta:signed}（12.4）",
    ),
    "concealment_a": (
        "{seat:seat} ({role:role1}) hid a card (藏张); {chooser:seat} chooses A: the hand "
        "ends (12.8)",
        "{seat:seat}（{role:role1}）藏张；{chooser:seat}选择 A：本副牌结束（12.8）",
    ),
    "concealment_b": (
        "{seat:seat} ({role:role1}) hid a card (藏张); {chooser:seat} chooses B: "
        "{delta:signed} to {DEF:role}, play continues (12.8)",
        "{seat:seat}（{role:role1}）藏张；{chooser:seat}选择 B：{DEF:role}得分 {delta:signed}，"
        "比赛继续（12.8）",
    ),
    "bidding_closed": (
        "hand {hand}: dealer {dealer:seat}, declarers {side:side} at level {level:level}, "
        "{trump:trump_is}",
        "第 {hand} 盘：{dealer:seat}坐庄，庄家方{side:side}打 {level:level}，{trump:trump_is}",
    ),
    "next_hand": (
        "next hand: {dealer:seat} deals; {shuffler:seat} shuffles, {cutter:seat} cuts",
        "下一盘：{dealer:seat}坐庄；{shuffler:seat}洗牌，{cutter:seat}过牌",
    ),
    "hand_voided_redeal": (
        "hand {hand} voided: redeal: {reason}",
        "第 {hand} 盘作废：重新发牌：{reason}",
    ),
    "hand_voided_wrong_dealer": (
        "hand {hand} voided: wrong dealer {seat:seat}",
        "第 {hand} 盘作废：坐庄顺序错误（{seat:seat}）",
    ),
    "hand_voided_disqualification": (
        "hand {hand} voided: match ended by disqualification",
        "第 {hand} 盘作废：比赛因取消资格结束",
    ),
    "hand_voided_forfeit": (
        "hand {hand} voided: match ended by forfeit",
        "第 {hand} 盘作废：比赛因弃权结束",
    ),
    # -- chapter 8 ---------------------------------------------------------------------
    "open_bid": (
        "{seat:seat} showed a bid openly: {side:side} lose the right to bid this hand",
        "{seat:seat}明叫：{side:side}失去本盘叫牌权",
    ),
    "false_bid": (
        "false bid by {seat:seat}: {other:side} name the trump, or the hand is played in no-trump",
        "{seat:seat}诈叫：由{other:side}定主，无人定主则打无主",
    ),
    "false_bid_no_trump": (
        "nobody of the non-offending side names a trump: no-trump",
        "非违例方无人定主：打无主",
    ),
    "false_bid_trump": (
        "{seat:seat} names the trump: {trump:trump}",
        "{seat:seat}定主：{trump:trump}",
    ),
    "wrong_play": (
        "{seat:seat} ({role:role1}) exposed {cards} card(s) × {per_card}: "
        "{delta:signed} to {DEF:role}",
        "{seat:seat}（{role:role1}）出错牌 {cards} 张 × {per_card}：{DEF:role}得分 {delta:signed}",
    ),
    "revoke": (
        "劳改 by {seat:seat} ({kind:revoke_kind}): hand {hand} ends; {other:side} choose A or B",
        "{seat:seat}劳改（{kind:revoke_kind}）：第 {hand} 盘结束；由{other:side}选择 A 或 B",
    ),
    "revoke_in_trick": (
        "劳改 by {seat:seat} ({kind:revoke_kind} in trick {trick}): hand {hand} ends; "
        "{other:side} choose A or B",
        "{seat:seat}劳改（第 {trick} 轮，{kind:revoke_kind}）：第 {hand} 盘结束；"
        "由{other:side}选择 A 或 B",
    ),
    "wrong_dealer": (
        "{seat:seat} dealt out of turn: hand {hand} is replayed, the dealer is decided "
        "again by the bidding race and rotation restarts from that dealer; levels do not "
        "change",
        "{seat:seat}坐庄顺序错误：第 {hand} 盘重打，按首盘方法抢庄重新确定庄家，"
        "并由该庄家重新轮庄；级不变",
    ),
    "conduct_warning": (
        "first offence of {side:side}: warning",
        "{side:side}第一次违规：警告",
    ),
    "conduct_referred": (
        "offence {n} of {side:side}: reported at once to the arbitration committee",
        "{side:side}第 {n} 次违规：立即报仲裁委员会",
    ),
    "disqualified": (
        "the committee disqualifies {side:side}: {other:side} win ({text})",
        "仲裁委员会取消{side:side}资格：{other:side}获胜（{text}）",
    ),
    "committee_decision": (
        "committee decision on {side:side}: {text}",
        "仲裁委员会对{side:side}的决定：{text}",
    ),
    "think_overrun": (
        "overrun recorded: {seat:seat} thought {seconds} s (limit {limit} s per play)",
        "记录超时：{seat:seat}思考 {seconds} 秒（每次出牌限 {limit} 秒）",
    ),
    "forfeit": (
        "{side:side} forfeit: {side:side} score 0 for the match, {other:side} advance",
        "{side:side}弃权：{side:side}本场记 0 分，{other:side}晋级",
    ),
    "committee_ruling": ("{text}", "{text}"),
    "committee_ruling_levels": (
        "{side:side} {n:signed} level(s): {before:level} → {after:level}",
        "{side:side}{n:signed} 级：{before:level} → {after:level}",
    ),
    "committee_ruling_points": (
        "{points:signed} to {DEF:role}",
        "{DEF:role}得分 {points:signed}",
    ),
    # -- the clock and the end (1.5) ---------------------------------------------------
    "time_out_voided_hand": (
        "1.5 at_time_out=stop: the hand in progress at time-out is voided",
        "1.5 时间到即停：时间到时正在进行的一盘作废",
    ),
    "time_out_by_level": (
        "time-out after {minutes} minutes: {winner:side} win at level {level:level} "
        "against {other_level:level}",
        "比赛时间 {minutes} 分钟到：{winner:side}以 {level:level} 级对 {other_level:level} 级获胜",
    ),
    "time_out_by_deal": (
        "time-out after {minutes} minutes at equal levels ({level:level}): {winner:side} hold "
        "the deal for the next hand and win",
        "比赛时间 {minutes} 分钟到，双方同级（{level:level}）：{winner:side}持有下一盘坐庄权，获胜",
    ),
    "time_out_undecided": (
        "time-out after {minutes} minutes at equal levels ({level:level}) and no side holds "
        "the deal: 1.5 cannot decide; the arbitration committee rules (8.11)",
        "比赛时间 {minutes} 分钟到，双方同级（{level:level}）且无人持有坐庄权："
        "1.5 无法判定胜负，由仲裁委员会裁定（8.11）",
    ),
    "clock_paused": (
        "clock paused {duration} ({reason})",
        "比赛计时暂停 {duration}（{reason}）",
    ),
    "match_ended": (
        "match ended: {winner:side} win ({reason:end_reason})",
        "比赛结束：{winner:side}获胜（{reason:end_reason}）",
    ),
    "passed_a_end": (
        "{winner:side} pass A (打过A) and win the match",
        "{winner:side}打过A，赢得比赛",
    ),
    "correction": (
        "event {target} {action:correction}: {reason}",
        "第 {target} 条记录已{action:correction}：{reason}",
    ),
}

#: Args that carry text the referee typed (shown as typed, in any language).
FREE_TEXT_ARGS = frozenset({"text", "reason"})
