"""The phrases of the match layer's refusals: one English and one Chinese template per key.

Dotted keys (``bid.counter_not_higher``), raised as ``EventRefused(key=..., params=...)``,
whose English line is rendered from here. The store's (``store.*``) are in
``store_refusals.py``: two books of one kind, each a size to read.
"""

from __future__ import annotations

#: key -> (English template, Chinese template).
REFUSALS: dict[str, tuple[str, str]] = {
    # -- the envelope and the record --------------------------------------------------
    "time.bad": (
        "bad time {text}: use ISO 8601 UTC like 2026-11-29T14:02:11.000Z",
        "时间 {text} 的格式不对（应为 ISO 8601 UTC 时间）",
    ),
    "event.unknown_type": ("unknown event type {type}", "未知的事件类型 {type}"),
    "event.not_an_object": ("an event must be a JSON object", "事件必须是 JSON 对象"),
    "event.first_needs_match_id": (
        "the first event of a match needs a match_id",
        "一场比赛的第一条事件需要比赛编号",
    ),
    "event.seq_gap": (
        "the next event must be number {expected}",
        "下一条事件的序号应为 {expected}",
    ),
    "event.first_must_open": (
        "the first event of a match must open it",
        "一场比赛的第一条事件必须是开赛",
    ),
    "event.other_match": ("this event belongs to another match", "这条事件属于另一场比赛"),
    "event.time_backwards": (
        "this event is timed before the previous one",
        "这条事件的时间早于上一条事件",
    ),
    "event.clock_mismatch": (
        "the event's match clock does not match the record",
        "事件的比赛用时与记录不符",
    ),
    "schema.invalid": (
        "{field:field} is not valid: {problem:problem}",
        "“{field:field}”填写不符合要求（{problem:problem}）",
    ),
    "match.already_opened": ("the match is already opened", "比赛已经开赛"),
    "match.ruleset_incomplete": (
        "the match's ruleset lacks parameters: {missing}",
        "比赛规则缺少参数：{missing}",
    ),
    "match.ended": (
        "the match has ended ({article}): only notes, corrections and committee rulings may follow",
        "比赛已结束（{article}）：此后只能记录备注、更正和仲裁裁决",
    ),
    "match.end_already": ("the end of the match is already recorded", "比赛结束已记录"),
    "note.about_not_earlier": (
        "event {about} is not an earlier event",
        "第 {about} 条不是之前的事件",
    ),
    # -- clock (1.5) ------------------------------------------------------------------
    "clock.not_started": (
        "the match clock is not started (1.5): press P to start it",
        "比赛尚未开始计时（1.5）：按 P 开始计时",
    ),
    "clock.paused": (
        "the clock is paused ({reason}): resume it first (P)",
        "比赛计时已暂停（{reason}）：请先按 P 恢复计时",
    ),
    "clock.already_started": ("the clock is already started (1.5)", "比赛已经开始计时（1.5）"),
    "clock.pause_not_started": ("the clock is not started", "比赛尚未开始计时"),
    "clock.already_paused": ("the clock is already paused", "比赛计时已暂停"),
    "clock.not_paused": ("the clock is not paused", "比赛计时没有暂停"),
    # -- hands ------------------------------------------------------------------------
    "hand.none_in_progress": (
        "no hand is in progress: start one with a bid (B)",
        "没有进行中的一盘：请先叫牌（B）开始新一盘",
    ),
    "hand.wrong_status": (
        "hand {hand} is in {status:status}, not in {need:status}",
        "第 {hand} 盘处于{status:status}，不是{need:status}",
    ),
    "hand.still_in_progress": (
        "hand {hand} is still in {status:status}",
        "第 {hand} 盘仍处于{status:status}",
    ),
    "hand.time_up": (
        "the match time of {minutes} minutes is up: no new hand is dealt (1.5)",
        "比赛时间 {minutes} 分钟已到：不再发新的一盘（1.5）",
    ),
    "hand.race_dealer_null": (
        "this hand's dealer is decided by the bidding race (2.1, 8.5)",
        "本盘庄家由抢庄叫牌决定（2.1、8.5），不能指定庄家",
    ),
    "hand.name_dealer": (
        "the dealer is {dealer:seat} by rotation; name the dealer",
        "按轮转应由{dealer:seat}坐庄，请指定庄家",
    ),
    # -- bids (2.1, 2.2) --------------------------------------------------------------
    "bid.after_false_bid": (
        "after a false bid the non-offending side names the trump (8.6)",
        "诈叫之后由非违规方定主（8.6）",
    ),
    "bid.pass_no_cards": ("a pass shows no cards", "不叫时不亮牌"),
    "bid.lost_right": (
        "{side:side} lost the right to bid in this hand by an open bid (8.1)",
        "{side:side}因明叫已失去本盘叫牌权（8.1）",
    ),
    "bid.no_standing_to_reinforce": (
        "there is no standing bid to reinforce (2.1)",
        "没有可加固的叫牌（2.1）",
    ),
    "bid.reinforce_not_own": (
        "only the standing bidder ({seat:seat}) may reinforce their bid (2.1)",
        "只有当前叫主者（{seat:seat}）才能加固自己的叫牌（2.1）",
    ),
    "bid.reinforce_cards": (
        "a reinforcement adds level cards ({level}) of the bid's suit ({suit:trump}) (2.1)",
        "加固须亮出同花色（{suit:trump}）的级牌（{level}）（2.1）",
    ),
    "bid.standing_exists": (
        "there is a standing bid by {seat:seat}: counter it or reinforce",
        "{seat:seat}已叫主：只能反主或加固",
    ),
    "bid.no_standing_to_counter": (
        "there is no standing bid to counter (2.1)",
        "没有可反的叫牌（2.1）",
    ),
    "bid.counter_own": (
        "{seat:seat} cannot counter their own bid (2.1)",
        "{seat:seat}不能反自己的叫牌（2.1）",
    ),
    "bid.counter_not_higher": (
        "a counter needs more level cards than the standing bid: {count} does not exceed "
        "{standing} (2.1)",
        "反主须比当前叫牌多亮级牌：{count} 张不多于 {standing} 张（2.1：两张反一张，三张反两张）",
    ),
    "bid.race_shape": (
        "{cards}: a bid in the bidding race shows exactly one LJ plus level cards ({level}) "
        "of one suit (2.1)",
        "{cards}：抢庄叫牌须亮一张小王加同花色的级牌（{level}）（2.1）",
    ),
    "bid.level_cards_only": (
        "{cards}: after the opening hand a bid shows level cards only (2.2)",
        "{cards}：第一盘之后叫牌只亮级牌（2.2）",
    ),
    "bid.needs_level_cards": (
        "{cards}: a bid needs level cards ({level}) (2.1)",
        "{cards}：叫牌须亮级牌（{level}）（2.1）",
    ),
    "bid.one_suit": (
        "{cards}: the level cards of a bid are of one suit (2.1)",
        "{cards}：叫牌亮出的级牌须为同一花色（2.1）",
    ),
    "cards.too_many_shown": (
        "{card} would be shown {total} times: there are only {decks} copies (1.4)",
        "{card} 将被亮出 {total} 次：只有 {decks} 张（1.4）",
    ),
    # -- closing the bidding ----------------------------------------------------------
    "bidding.false_bid_trump_first": (
        "record the non-offending side's trump choice first (8.6)",
        "请先记录非违规方的定主（8.6）",
    ),
    "bidding.false_bid_race_dealer": (
        "after a false bid in the bidding race the dealer is of the non-offending side "
        "{side:side} (8.6)",
        "抢庄中诈叫后，庄家应为非违规方{side:side}（8.6）",
    ),
    "bidding.race_dealer_is_standing": (
        "the last standing bidder {seat:seat} becomes the dealer (2.1)",
        "最后叫主的{seat:seat}坐庄（2.1）",
    ),
    "bidding.race_nobody_bid": (
        "nobody bid in the bidding race: record a redeal (2.1)",
        "抢庄无人叫主：请记录重新发牌（2.1）",
    ),
    "bidding.trump_mismatch": (
        "the trump is {expected:trump} by the bidding, not {trump:trump}",
        "按叫牌主牌应为{expected:trump}，不是{trump:trump}",
    ),
    "bidding.dealer_mismatch": (
        "the dealer of this hand is {dealer:seat}, not {seat:seat}",
        "本盘庄家是{dealer:seat}，不是{seat:seat}",
    ),
    # -- points and the summary (7) ---------------------------------------------------
    "points.not_capturable": (
        "{points} points cannot be captured: points come in 5s, 0 to {total} (7)",
        "{points} 分不可能：得分以 5 分为单位，在 0 到 {total} 之间（7）",
    ),
    "summary.detailed_form": (
        "this hand is recorded trick by trick; its result is derived",
        "本盘已逐墩记录，结果由记录得出，不能再录入本盘结果",
    ),
    "summary.too_many_points": (
        "{before} + {last} = {sum}: there are only {total} points in {decks} decks (7)",
        "{before} + {last} = {sum}：{decks} 副牌只有 {total} 分（7）",
    ),
    # -- tricks (6) -------------------------------------------------------------------
    "trick.summary_form": (
        "this hand is recorded in summary form",
        "本盘已按结果汇总记录，不能再逐墩录入",
    ),
    "trick.wrong_leader": (
        "the leader must be {leader:seat}",
        "本墩应由{leader:seat}领出",
    ),
    "trick.plays_twice": ("{seat:seat} plays twice in this trick", "{seat:seat}在本墩出了两次牌"),
    "trick.play_order": (
        "plays must be in play order from the leader: {order}",
        "出牌须按顺序从领出者开始：{order}",
    ),
    "trick.card_count": (
        "{seat:seat} plays {count} cards to a lead of {size} (a revoke, 8.3, if a player "
        "held too many or too few cards)",
        "{seat:seat}出了 {count} 张，领出的是 {size} 张（若有人多牌或少牌，记劳改 8.3）",
    ),
    "cards.too_many_played": (
        "a {copy}th copy of {card} would be in play: there are only {decks} (1.4)",
        "将出现第 {copy} 张 {card}：只有 {decks} 张（1.4）",
    ),
    "trick.too_many_cards": (
        "{seat:seat} would have played {count} cards; a player holds {per_player}",
        "{seat:seat}将出牌 {count} 张，每人只有 {per_player} 张",
    ),
    # -- violations (8) ---------------------------------------------------------------
    "open_bid.already_lost": (
        "{side:side} already lost the right to bid in this hand (8.1)",
        "{side:side}已失去本盘叫牌权（8.1）",
    ),
    "open_bid.answer_allowed": (
        "{other:side} showed their bid openly, so {side:side} may bid openly: no violation "
        "(8.1); record their counter as a bid",
        "{other:side}已明叫，{side:side}可以明叫应对：不算违规（8.1），请按叫牌记录",
    ),
    "false_bid.already": (
        "a false bid is already recorded in this hand (8.6)",
        "本盘已记录诈叫（8.6）",
    ),
    "false_bid.none": ("no false bid is recorded in this hand (8.6)", "本盘没有诈叫记录（8.6）"),
    "false_bid.trump_named": (
        "the trump after the false bid is already named (8.6)",
        "诈叫后的主牌已经定了（8.6）",
    ),
    "false_bid.nobody_names_nt": (
        "if nobody of the non-offending side names a trump, the hand is no-trump (8.6)",
        "非违规方无人定主时，本盘打无主（8.6）",
    ),
    "false_bid.trump_by_offender": (
        "the trump is named by the non-offending side; {seat:seat} is on the offending side "
        "{side:side} (8.6)",
        "主牌由非违规方定；{seat:seat}属于违规方{side:side}（8.6）",
    ),
    "wrong_play.count_mismatch": (
        "{exposed} cards exposed but {listed} cards are listed",
        "亮出的牌数为 {exposed}，但列出了 {listed} 张",
    ),
    "revoke.trick_not_recorded": (
        "trick {trick} is not recorded yet; a revoke is established once the next trick "
        "has begun (8.3)",
        "第 {trick} 墩尚未记录；下一墩开始后才构成劳改（8.3）",
    ),
    "revoke.points_differ": (
        "the defenders' captured points {points} differ from the {captured} the recorded "
        "tricks give",
        "防守方所得牌分 {points} 与已记录各墩得出的 {captured} 不符",
    ),
    "revoke.choice_by_offender": (
        "the choice is the non-offending side's; {seat:seat} is on the offending side "
        "{side:side} (8.3)",
        "由非违规方选择；{seat:seat}属于违规方{side:side}（8.3）",
    ),
    "revoke.b_needs_points": (
        "choice B needs the defenders' captured points (8.3)",
        "选择 B 需要填写防守方所得牌分（8.3）",
    ),
    "wrong_dealer.race": (
        "in a bidding race the dealer is the last standing bidder (2.1)",
        "抢庄时庄家是最后叫主者（2.1）",
    ),
    "wrong_dealer.not_wrong": (
        "{seat:seat} deals hand {hand} and is due by rotation: the dealing order is not "
        "wrong (8.5)",
        "第 {hand} 盘由{seat:seat}坐庄，符合轮转：坐庄顺序没有错（8.5）",
    ),
    "wrong_dealer.other_seat": (
        "{dealer:seat} dealt hand {hand}, not {seat:seat}; name the seat that dealt out of "
        "turn (8.5)",
        "第 {hand} 盘是{dealer:seat}发的牌，不是{seat:seat}；请选择错坐庄的座位（8.5）",
    ),
    "committee.not_referred": (
        "{side:side} has not been reported to the arbitration committee (that takes a second "
        "offence, 8.8)",
        "{side:side}尚未报仲裁委员会（第二次违规才上报，8.8）",
    ),
    "overrun.within_time": (
        "{seconds} s is within the {limit} s thinking time (8.9)",
        "{seconds} 秒没有超过 {limit} 秒的思考时间（8.9）",
    ),
    "committee.off_ladder": (
        "{side:side} at {level} {change} leaves the ladder {lowest} … A (8.11)",
        "{side:side}在 {level} 级 {change} 会超出 {lowest} 到 A 的范围（8.11）",
    ),
    "committee.points_need_hand": (
        "a point adjustment needs a hand in play (8.11)",
        "调整得分需要有进行中的一盘（8.11）",
    ),
    # -- the end (10) -----------------------------------------------------------------
    "end.clock_never_started": (
        "the match has not ended: the clock was never started",
        "比赛没有结束：从未开始计时",
    ),
    "end.not_ended": (
        "the match has not ended: nobody passed A, forfeited or was disqualified, and "
        "{remaining} of match time remain",
        "比赛没有结束：无人打过A、弃权或被取消资格，比赛时间还剩 {remaining}",
    ),
    "end.mismatch": (
        "the record shows {reason:end_reason} won by {winner:side}, not {claimed:end_reason} "
        "won by {claimed_winner:side}",
        "记录显示{winner:side}因{reason:end_reason}获胜，而不是{claimed_winner:side}因"
        "{claimed:end_reason}获胜",
    ),
    # -- corrections ------------------------------------------------------------------
    "correction.target_not_earlier": (
        "event {target} is not an earlier event of this match",
        "第 {target} 条不是本场比赛之前的事件",
    ),
    "correction.target_is_correction": (
        "a correction cannot target another correction; correct the original event",
        "不能更正一条更正，请更正原来的事件",
    ),
    "correction.already_voided": ("event {target} is already voided", "第 {target} 条已作废"),
    "correction.match_opened": (
        "the opening of the match cannot be voided (replace it to fix its details)",
        "开赛记录不能作废（可改正其内容）",
    ),
    "correction.would_refuse": (
        "with event {target} corrected, event {seq} ({type:event}) would be refused: {inner}",
        "更正第 {target} 条后，第 {seq} 条（{type:event}）将不成立：{inner}",
    ),
    # -- the presets qq-four-deck and three-deck (RULES 12) ---------------------------
    "kitty.none": (
        "{ruleset:ruleset} has no kitty (1.4)",
        "{ruleset:ruleset}规则没有底牌（1.4）",
    ),
    "kitty.not_dealer": (
        "the dealer {dealer:seat} buries the kitty, not {seat:seat} (12.1)",
        "由庄家{dealer:seat}扣底，不是{seat:seat}（12.1）",
    ),
    "kitty.twice": (
        "the kitty of hand {hand} is already recorded (event {seq})",
        "第 {hand} 盘的底牌已记录（第 {seq} 条）",
    ),
    "kitty.card_count": (
        "the kitty holds {expected} cards, not {given} (12.1)",
        "底牌应为 {expected} 张，不是 {given} 张（12.1）",
    ),
    "kitty.too_many_copies": (
        "one more {card} would be in play: there are only {copies} (1.4)",
        "{card} 的张数将超过 {copies} 副牌的数量（1.4）",
    ),
    "kitty.points_mismatch": (
        "the buried cards hold {points} points, not {given}",
        "扣下的底牌共 {points} 分，不是 {given} 分",
    ),
    "kitty.points_missing": (
        "give the buried cards or their points (12.1)",
        "请填写扣下的底牌或底牌分（12.1）",
    ),
    "kitty.bad_points": (
        "kitty points {points}: the kitty holds 0 to {most} points in 5s (12.1)",
        "底牌分 {points}：应为 0 到 {most} 之间 5 的倍数（12.1）",
    ),
    "kitty.needed": (
        "the defenders dig the kitty (12.5): record the kitty first",
        "防守方抠底（12.5）：请先记录底牌",
    ),
    "kitty.shape_needed": (
        "the defenders dig the kitty (12.5): give the last lead's shape",
        "防守方抠底（12.5）：请填写最后一轮首家出牌的牌型",
    ),
    "summary.no_kitty": (
        "{ruleset:ruleset} has no kitty: no kitty points or last-lead shape",
        "{ruleset:ruleset}规则没有底牌：不填底牌分和末轮牌型",
    ),
    "summary.bad_shape": (
        "last lead's shape: {error}",
        "末轮首家牌型填写有误",
    ),
    "summary.kitty_differs": (
        "kitty points {given} differ from the {recorded} of the recorded kitty",
        "底牌分 {given} 与已记录的底牌分 {recorded} 不符",
    ),
    "throw.forbidden": (
        "{ruleset:ruleset} forbids throws (4.7): record a wrong play (8.2)",
        "{ruleset:ruleset}规则不允许甩牌（4.7）：请记录出错牌（8.2）",
    ),
    "throw.not_leader": (
        "{leader:seat} leads the next trick, not {seat:seat}",
        "下一轮由{leader:seat}首先出牌，不是{seat:seat}",
    ),
    "throw.shown_by_partner": (
        "{shown_by:seat} is {seat:seat}'s partner: the opponents show the cards (12.4)",
        "{shown_by:seat}是{seat:seat}的同伴：应由对方亮牌（12.4）",
    ),
    "throw.too_many_copies": (
        "one more {card} would be held: there are only {copies} (1.4)",
        "{card} 的张数将超过 {copies} 副牌的数量（1.4）",
    ),
    "throw.not_a_throw": (
        "{cards} is not a throw: two or more units of one suit (12.4)",
        "{cards} 不是甩牌：甩牌须为同一花色的两个以上牌型（12.4）",
    ),
    "throw.stands": (
        "the shown cards {shown} beat no component of the throw {throw}: it stands (12.4)",
        "亮出的 {shown} 管不住甩牌 {throw} 的任何部分：甩牌成立（12.4）",
    ),
    "throw.bad_forced": (
        "the thrower leads the smallest beaten component: {choices} (12.4)",
        "甩牌者须出被管住的最小部分：{choices}（12.4）",
    ),
    "throw.name_forced": (
        "several beaten components are equal: name the one led ({choices}) (12.4)",
        "被管住的部分有几个相同：请指明所出的一个（{choices}）（12.4）",
    ),
    "throw.forced_lead": (
        "after the failed throw {seat:seat} leads only {forced} (12.4)",
        "甩牌失败后{seat:seat}只能出 {forced}（12.4）",
    ),
    "conceal.not_in_ruleset": (
        "{ruleset:ruleset} has no 藏张 rule (12.8): record a revoke (8.3)",
        "{ruleset:ruleset}规则没有藏张规定（12.8）：请记录劳改（8.3）",
    ),
    "conceal.chooser_side": (
        "12.8: the choice is the non-offending side's; {chooser:seat} is on the offending "
        "side {side:side}",
        "12.8：由未犯规方选择；{chooser:seat}属于犯规方{side:side}",
    ),
    "conceal.replaces_revoke": (
        "{ruleset:ruleset}: 藏张 replaces 劳改 (12.8): record a concealment",
        "{ruleset:ruleset}规则：以藏张代替劳改（12.8）：请记录藏张",
    ),
    "bid.no_joker_in_preset": (
        "{cards}: {ruleset:ruleset} bids by showing level cards only, no LJ (12.3)",
        "{cards}：{ruleset:ruleset}规则只亮级牌叫主，不用小王（12.3）",
    ),
    "bid.open_in_preset": (
        "{ruleset:ruleset} bids openly (12.3): there is no open-bid violation (8.1)",
        "{ruleset:ruleset}规则为明叫（12.3）：没有明叫违例（8.1）",
    ),
}
