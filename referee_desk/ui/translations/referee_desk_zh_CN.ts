<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BidDialog</name>
    <message>
        <source>automatic</source>
        <extracomment>The kind box&apos;s first entry: take the kind from the standing bid.</extracomment>
        <translation>自动</translation>
    </message>
    <message>
        <source>Record bid</source>
        <translation>记录叫牌</translation>
    </message>
    <message>
        <source>e.g. W %1 (seat, then the cards)</source>
        <translation>如 W %1（座位字母，再写牌）</translation>
    </message>
    <message>
        <source>Enter records: %1 %2</source>
        <translation>回车记录：%1 %2</translation>
    </message>
    <message>
        <source>No bid yet in this hand.</source>
        <translation>本盘尚无叫牌。</translation>
    </message>
    <message>
        <source>Type the cards shown, or choose “pass” as the kind.</source>
        <translation>请输入亮出的牌，或在类型中选择“不叫”。</translation>
    </message>
    <message>
        <source>Bid</source>
        <translation>叫牌</translation>
    </message>
    <message>
        <source>Seat (N/E/S/W)</source>
        <translation>座位 (N/E/S/W)</translation>
    </message>
    <message>
        <source>e.g. LJ H3 H3, or W LJ H3 H3</source>
        <translation>如 LJ H3 H3 或 W LJ H3 H3</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Cards</source>
        <translation>牌</translation>
    </message>
    <message>
        <source>Close bidding</source>
        <translation>叫牌结束</translation>
    </message>
    <message>
        <source>Dealer</source>
        <translation>庄家</translation>
    </message>
    <message>
        <source>Trump</source>
        <translation>主</translation>
    </message>
    <message>
        <source>Close bidding (Ctrl+Enter)</source>
        <translation>叫牌结束 (Ctrl+Enter)</translation>
    </message>
</context>
<context>
    <name>CommitteeDecisionDialog</name>
    <message>
        <source>Committee decision on conduct</source>
        <translation>仲裁委员会对违纪的决定</translation>
    </message>
    <message>
        <source>After a side&apos;s second conduct offence the arbitration committee decides, normally disqualifying that side.</source>
        <translation>一方第二次违纪后由仲裁委员会决定，一般取消该方比赛资格。</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Ruling</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>disqualification</source>
        <translation>取消资格</translation>
    </message>
    <message>
        <source>warning only</source>
        <translation>仅警告</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>CommitteeRulingDialog</name>
    <message>
        <source>Committee ruling</source>
        <translation>仲裁裁决</translation>
    </message>
    <message>
        <source>Anything the rules do not cover is decided by the arbitration committee; its ruling is recorded as text with any level or point adjustment it orders.</source>
        <translation>规程未尽事宜由仲裁委员会裁决；记录裁决文字及其规定的级数或分数调整。</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>不变</translation>
    </message>
    <message>
        <source>Set the defenders&apos; points to</source>
        <translation>防守方得分改为</translation>
    </message>
    <message>
        <source>Ruling</source>
        <translation>裁决</translation>
    </message>
</context>
<context>
    <name>CommitteeSignInDialog</name>
    <message>
        <source>Committee sign-in</source>
        <translation>仲裁委员会登录</translation>
    </message>
    <message>
        <source>Committee member</source>
        <translation>仲裁委员</translation>
    </message>
    <message>
        <source>PIN</source>
        <translation>PIN 码</translation>
    </message>
    <message>
        <source>Only the arbitration committee can add a ruling to a locked match. In a file without committee members, the first one registers with the PIN entered here.</source>
        <translation>比赛锁定后只有仲裁委员会可以补充裁定。文件中尚无仲裁委员时，第一位委员以此处输入的 PIN 码登记。</translation>
    </message>
    <message>
        <source>Enter the committee member&apos;s name.</source>
        <translation>请输入仲裁委员的姓名。</translation>
    </message>
</context>
<context>
    <name>ConcealmentDialog</name>
    <message>
        <source>Concealed card (藏张)</source>
        <translation>藏张</translation>
    </message>
    <message>
        <source>A card held back and not played when it had to be (002 八.1). Noticed at once, it is simply corrected. Otherwise the non-offending side chooses: A) the hand ends (offenders declaring: the defenders take the deal; offenders defending: the declarers go up one level and keep the deal); B) %1 points to the defenders (taken from them if a defender hid the card) and play continues.</source>
        <translation>该出的牌藏着不出（002 八.1）。当场发现的，改正即可；否则由未犯规方选择：A）本局结束（犯规方坐庄：闲家上台；犯规方为闲家：庄家升一级并继续坐庄）；B）闲家得分加 %1 分（闲家藏张则扣 %1 分），继续打牌。</translation>
    </message>
    <message>
        <source>Seat that hid a card</source>
        <translation>藏张者</translation>
    </message>
    <message>
        <source>Choice made by</source>
        <translation>选择者</translation>
    </message>
    <message>
        <source>A: the hand ends</source>
        <translation>A：本局结束</translation>
    </message>
    <message>
        <source>B: %1 points, play continues</source>
        <translation>B：%1 分，继续打牌</translation>
    </message>
</context>
<context>
    <name>ConductWarningDialog</name>
    <message>
        <source>Conduct warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Talking, signalling, peeking or looking at scores or played cards: a side&apos;s first offence is a warning; at the second the referee reports it at once to the arbitration committee.</source>
        <translation>讲话、暗示、偷看、翻看记分或已出的牌：一方第一次违纪给予警告；第二次由裁判立即报告仲裁委员会。</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
</context>
<context>
    <name>EntryDialog</name>
    <message>
        <source>Refused: %1</source>
        <translation>拒绝：%1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Discard what was typed?</source>
        <extracomment>The &quot;discard what was typed?&quot; question while it is open (tests answer it).</extracomment>
        <translation>放弃已输入的内容？</translation>
    </message>
    <message>
        <source>What was typed in this dialog is not recorded. Discard it?</source>
        <translation>此对话框中输入的内容尚未记录。要放弃吗？</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Keep typing</source>
        <translation>继续输入</translation>
    </message>
</context>
<context>
    <name>EventLogModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>比赛钟</translation>
    </message>
    <message>
        <source>Seat</source>
        <translation>座位</translation>
    </message>
    <message>
        <source>What</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Consequence</source>
        <translation>后果</translation>
    </message>
    <message>
        <source>Article</source>
        <translation>条款</translation>
    </message>
    <message>
        <source>Referee</source>
        <translation>裁判</translation>
    </message>
    <message>
        <source>throw</source>
        <translation>甩牌</translation>
    </message>
    <message>
        <source>defenders %1, last trick %2 × %3 won by %4</source>
        <translation>防守方 %1 分，末墩 %2 分 × %3 张，%4得末墩</translation>
    </message>
    <message>
        <source>%1 wins trick %2 · %3 points</source>
        <translation>%1 赢第 %2 墩 · %3 分</translation>
    </message>
    <message>
        <source>Corrected: %1</source>
        <translation>已更正：%1</translation>
    </message>
    <message>
        <source>corrected: %1</source>
        <translation>已更正：%1</translation>
    </message>
</context>
<context>
    <name>FalseBidDialog</name>
    <message>
        <source>False bid</source>
        <translation>诈叫</translation>
    </message>
    <message>
        <source>A wrong or false bid: any player of the non-offending side names the trump suit; if none does, the hand is played in no-trump.</source>
        <translation>错叫或诈叫：由非违规方任一选手指定主牌花色；无人指定则本盘打无主。</translation>
    </message>
    <message>
        <source>nobody (no-trump)</source>
        <translation>无人指定（无主）</translation>
    </message>
    <message>
        <source>Trump named by</source>
        <translation>指定主牌者</translation>
    </message>
</context>
<context>
    <name>ForfeitDialog</name>
    <message>
        <source>Forfeit</source>
        <translation>弃权</translation>
    </message>
    <message>
        <source>The forfeiting side scores 0 for the match and the other side advances. The match ends.</source>
        <translation>弃权方本场记 0 分，对方晋级。比赛结束。</translation>
    </message>
    <message>
        <source>Forfeiting side</source>
        <translation>弃权方</translation>
    </message>
    <message>
        <source>Details (optional)</source>
        <translation>说明（可选）</translation>
    </message>
</context>
<context>
    <name>HandSummaryDialog</name>
    <message>
        <source>%1 win the match (%2, %3)</source>
        <translation>%1赢得比赛（%2，%3）</translation>
    </message>
    <message>
        <source>Defenders %1</source>
        <translation>防守方 %1</translation>
    </message>
    <message>
        <source>%1 up %2 → %3</source>
        <translation>%1升 %2 级 → %3</translation>
    </message>
    <message>
        <source>next dealer %1</source>
        <translation>下盘%1坐庄</translation>
    </message>
    <message>
        <source>Shape of the last lead: “%1” is not a unit (write 1, 2, 3 or 2x3).</source>
        <extracomment>One unit of a typed lead shape: ``2x3`` (three consecutive pairs), ``2`` (a pair).</extracomment>
        <translation>最后一轮首出牌型：“%1”不是一个牌型（请写 1、2、3 或 2x3）。</translation>
    </message>
    <message>
        <source>Kitty %1 points: the declarers won the last trick, no dig</source>
        <translation>底牌 %1 分：庄家赢得最后一轮，不抠底</translation>
    </message>
    <message>
        <source>Kitty %1 points × %2 = %3 to the defenders</source>
        <translation>底牌 %1 分 × %2 = %3 分归闲家</translation>
    </message>
    <message>
        <source>%1 from %2 is added to the points typed</source>
        <translation>本手已有%2的 %1 分，将加到所填分数上</translation>
    </message>
    <message>
        <source>: %1 + %2 = %3 before the last trick</source>
        <translation>：%1 + %2 = %3（末轮之前）</translation>
    </message>
    <message>
        <source> (type the points captured in cards, not the scoresheet total)</source>
        <translation>（请填牌面所得分，不要填记分表上的合计）</translation>
    </message>
    <message>
        <source>Hand result</source>
        <translation>本盘结果</translation>
    </message>
    <message>
        <source>Defenders&apos; points before the last trick</source>
        <translation>最后一墩前防守方得分</translation>
    </message>
    <message>
        <source>Points in the last trick</source>
        <translation>最后一墩的分数</translation>
    </message>
    <message>
        <source>Cards per player in the last trick</source>
        <translation>最后一墩每人出牌张数</translation>
    </message>
    <message>
        <source>Last trick won by</source>
        <translation>最后一墩赢家</translation>
    </message>
    <message>
        <source>Points in the kitty</source>
        <translation>底牌分数</translation>
    </message>
    <message>
        <source>Shape of the last lead</source>
        <translation>最后一轮首出牌型</translation>
    </message>
    <message>
        <source>e.g. 2x3 for 445566, 1 1 1 1 for a throw SA SK SQ SJ</source>
        <translation>例：445566 写 2x3，甩牌 SA SK SQ SJ 写 1 1 1 1</translation>
    </message>
</context>
<context>
    <name>KittyDialog</name>
    <message>
        <source>Kitty (底牌)</source>
        <translation>底牌</translation>
    </message>
    <message>
        <source>After the bidding the dealer takes the %1 kitty cards and buries as many face down. Enter the buried cards, or only their points. When the defenders win the last trick they add the kitty&apos;s points times the last lead&apos;s multiplier.</source>
        <translation>叫牌结束后庄家拿起 %1 张底牌，再扣下同样张数（埋底）。录入扣下的牌，或只录入其分数。闲家赢得最后一轮时，底牌分乘以最后一轮首出牌型的倍数计入闲家得分。</translation>
    </message>
    <message>
        <source>Dealer</source>
        <translation>庄家</translation>
    </message>
    <message>
        <source>Buried cards (optional)</source>
        <translation>扣底的牌（可不填）</translation>
    </message>
    <message>
        <source>Points in the kitty</source>
        <translation>底牌分数</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Referee Desk — %1</source>
        <extracomment>The violation menu keys of committee entries (8.11 ruling, 8.8 decision). Rolling backups: one after every this many events, and one on close (issue 5). The open tournament file changed (opened, reopened after recovery, or closed). Every menu entry (key, dialog class, action); a key may serve two presets (2: 劳改 or 藏张, 3: open bid or failed throw), one of them shown.</extracomment>
        <translation>裁判台 — %1</translation>
    </message>
    <message>
        <source>Committee sign-in…</source>
        <translation>仲裁委员会登录…</translation>
    </message>
    <message>
        <source>Open tournament file</source>
        <translation>打开赛事文件</translation>
    </message>
    <message>
        <source>This closes the match in progress (everything recorded is kept). Continue?</source>
        <translation>这将关闭进行中的比赛（已记录的内容都会保留）。继续吗？</translation>
    </message>
    <message>
        <source>Revoke (劳改), choice B: V, 2, Tab, Tab, B, Enter (Tab goes down the form as drawn).</source>
        <translation>劳改选 B：V，2，Tab，Tab，B，回车（Tab 按表单从上到下）。</translation>
    </message>
    <message>
        <source>Close the match?</source>
        <translation>关闭比赛？</translation>
    </message>
    <message>
        <source>Tournament files (*.sqlite *.db);;All files (*)</source>
        <translation>赛事文件 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>The file %1 cannot be opened:
%2</source>
        <translation>无法打开文件 %1：
%2</translation>
    </message>
    <message>
        <source>%1 (read-only: nothing can be recorded)</source>
        <translation>%1（只读：无法记录）</translation>
    </message>
    <message>
        <source>Backup restored</source>
        <translation>已恢复备份</translation>
    </message>
    <message>
        <source>%1 was restored from the backup of %2. The damaged file is kept as %3.</source>
        <translation>%1 已从 %2 的备份恢复。损坏的文件保留为 %3。</translation>
    </message>
    <message>
        <source>No file</source>
        <translation>没有文件</translation>
    </message>
    <message>
        <source>Open a tournament file first.</source>
        <translation>请先打开赛事文件。</translation>
    </message>
    <message>
        <source>No match open (Ctrl+M)</source>
        <extracomment>Entry actions that stay available once the match is locked: notes (the store refuses anything else but committee rulings, issue 4/5) and the end announcement. Actions that also work in review mode (they concern the selected event).</extracomment>
        <translation>未打开比赛 (Ctrl+M)</translation>
    </message>
    <message>
        <source>Level %1</source>
        <translation>级 %1</translation>
    </message>
    <message>
        <source>Review %1 (event %2) — ←/→ to step, Esc to leave</source>
        <translation>回看 %1（事件 %2）— ←/→ 逐条，Esc 退出</translation>
    </message>
    <message>
        <source>No match is open: open or start one first (Ctrl+M).</source>
        <translation>没有打开比赛：请先打开或开始一场比赛（Ctrl+M）。</translation>
    </message>
    <message>
        <source>Review mode: Esc returns to the live match.</source>
        <translation>回看模式：按 Esc 回到当前比赛。</translation>
    </message>
    <message>
        <source>The match is over: only notes (N) and, once a committee member signs in, committee rulings (V 9) can follow.</source>
        <translation>比赛已结束：只能添加备注（N），仲裁委员登录后可记录仲裁裁决（V 9）。</translation>
    </message>
    <message>
        <source>Nothing to undo at this desk.</source>
        <translation>本台没有可撤销的记录。</translation>
    </message>
    <message>
        <source>Not available now.</source>
        <translation>现在不可用。</translation>
    </message>
    <message>
        <source>Start clock (P)</source>
        <translation>开始计时 P</translation>
    </message>
    <message>
        <source>Pause (P)</source>
        <translation>暂停 P</translation>
    </message>
    <message>
        <source>Resume (P)</source>
        <translation>继续 P</translation>
    </message>
    <message>
        <source>MATCH OVER</source>
        <translation>比赛已结束</translation>
    </message>
    <message>
        <source>NOT STARTED</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>PAUSED %1</source>
        <translation>已暂停 %1</translation>
    </message>
    <message>
        <source>Think %1 s</source>
        <translation>思考 %1 秒</translation>
    </message>
    <message>
        <source>Over by %1 s (O records)</source>
        <translation>超时 %1 秒（按 O 记录）</translation>
    </message>
    <message>
        <source>no time limit</source>
        <translation>无时限</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>没有比赛</translation>
    </message>
    <message>
        <source>Open or start a match first (Ctrl+M).</source>
        <translation>请先打开或开始一场比赛 (Ctrl+M)。</translation>
    </message>
    <message>
        <source>Committee: %1 signed in</source>
        <translation>仲裁委员会：%1 已登录</translation>
    </message>
    <message>
        <source>Clock started</source>
        <translation>比赛钟已开始</translation>
    </message>
    <message>
        <source>Pause the clock</source>
        <translation>暂停比赛钟</translation>
    </message>
    <message>
        <source>Why is the clock paused?</source>
        <translation>暂停原因？</translation>
    </message>
    <message>
        <source>ruling</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>dispute</source>
        <translation>争议</translation>
    </message>
    <message>
        <source>break</source>
        <translation>休息</translation>
    </message>
    <message>
        <source>Clock paused</source>
        <translation>比赛钟已暂停</translation>
    </message>
    <message>
        <source>Clock resumed</source>
        <translation>比赛钟已继续</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Note for the record:</source>
        <translation>记录备注：</translation>
    </message>
    <message>
        <source>Write the note first.</source>
        <translation>请先写下备注内容。</translation>
    </message>
    <message>
        <source>Undo last entry</source>
        <translation>撤销上一条录入</translation>
    </message>
    <message>
        <source>Undo “%1”: a correction is recorded (nothing is deleted). Reason:</source>
        <translation>撤销“%1”：将记录一条更正（不删除任何记录）。原因：</translation>
    </message>
    <message>
        <source>entered by mistake</source>
        <translation>录入错误</translation>
    </message>
    <message>
        <source>Correction</source>
        <translation>更正</translation>
    </message>
    <message>
        <source>Void event %1 (%2). Reason (required):</source>
        <translation>作废事件 %1（%2）。原因（必填）：</translation>
    </message>
    <message>
        <source>The tournament on the server</source>
        <translation>服务器上的赛事</translation>
    </message>
    <message>
        <source>This window shows the tournament on the server (the organizer&apos;s address): matches are recorded at the tables&apos; desks, each opened with its table&apos;s address. Open a file (File ▸ Open) to record here.</source>
        <translation>此窗口显示服务器上的赛事（主办方地址）：比赛在各桌的裁判台上记录，每台用本桌的地址打开。要在这里记录，请打开一个文件（文件 ▸ 打开）。</translation>
    </message>
    <message>
        <source>Export match report</source>
        <translation>导出比赛报告</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Match report written: %1</source>
        <translation>比赛报告已写入：%1</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Match view / Tournament tab</source>
        <translation>比赛 / 赛事标签页切换</translation>
    </message>
    <message>
        <source>Bid: B, then the seat and the cards in one line, W LJ H3, Enter (or seat letter, Tab, cards); the kind follows the standing bid; Ctrl+Enter closes the bidding.</source>
        <translation>叫牌：B，座位字母和牌写在一行（W LJ H3），回车（也可：座位字母，Tab，牌）；类型按当前叫牌自动判断；Ctrl+Enter 结束叫牌。</translation>
    </message>
    <message>
        <source>Hand result: R, 135, Tab, 10, Tab, 2, Enter (10 keys); a seat letter (N E S W) in any field names the side that won the last trick (R 85 Tab 10 Tab 2 W Enter, 10 keys); every number is recorded as typed.</source>
        <translation>本盘结果：R，135，Tab，10，Tab，2，回车（10 键）；在任一栏输入座位字母（N E S W）即选定末轮赢方（R 85 Tab 10 Tab 2 W 回车，10 键）；所有数字按输入原样记录。</translation>
    </message>
    <message>
        <source>Trick: T, then four plays separated by spaces and Enter: SK SA H4 S5 (13 keys with T), a pair S5S5 S6S6 H4H4 S9S9 (20), a bomb (36); ! before a play marks a discard; Ctrl+L marks the last trick, whose result is previewed.</source>
        <translation>逐墩：T，然后四家出牌用空格分隔，回车：SK SA H4 S5（连 T 共 13 键），对子 S5S5 S6S6 H4H4 S9S9（20 键），炸弹（36 键）；在某家前加 ! 表示垫牌；Ctrl+L 标记最后一墩，并预览本盘结果。</translation>
    </message>
    <message>
        <source>Text boxes: Ctrl+Enter records. Esc asks before what was typed is discarded.</source>
        <translation>文字框：Ctrl+Enter 记录。按 Esc 时若有已输入内容，会先询问是否放弃。</translation>
    </message>
    <message>
        <source>About Referee Desk</source>
        <translation>关于裁判台</translation>
    </message>
    <message>
        <source>Referee Desk: the referee&apos;s desk for Guilin four-deck Tractor tournaments.</source>
        <translation>裁判台：桂林四副牌拖拉机比赛的裁判工具。</translation>
    </message>
    <message>
        <source>Referee Desk</source>
        <translation>裁判台</translation>
    </message>
    <message>
        <source>PAUSED</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余</translation>
    </message>
    <message>
        <source>N–S</source>
        <translation>南北</translation>
    </message>
    <message>
        <source>E–W</source>
        <translation>东西</translation>
    </message>
    <message>
        <source>This hand</source>
        <translation>本盘</translation>
    </message>
    <message>
        <source>Bid (B)</source>
        <translation>叫牌 B</translation>
    </message>
    <message>
        <source>Hand result (R)</source>
        <translation>本盘结果 R</translation>
    </message>
    <message>
        <source>Trick (T)</source>
        <translation>逐墩 T</translation>
    </message>
    <message>
        <source>Violation (V)</source>
        <translation>违规 V</translation>
    </message>
    <message>
        <source>Think (Space)</source>
        <translation>思考计时 Space</translation>
    </message>
    <message>
        <source>Overrun (O)</source>
        <translation>超时 O</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Violations only (Ctrl+F)</source>
        <translation>只看违规 (Ctrl+F)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Match</source>
        <translation>比赛(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Open tournament file…</source>
        <translation>打开赛事文件…</translation>
    </message>
    <message>
        <source>Open or start a match…</source>
        <translation>打开或开始比赛…</translation>
    </message>
    <message>
        <source>Export match report (PDF)…</source>
        <translation>导出比赛报告 (PDF)…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Correct an event…</source>
        <translation>更正事件…</translation>
    </message>
    <message>
        <source>Show violations only</source>
        <translation>只看违规</translation>
    </message>
    <message>
        <source>Bid…</source>
        <translation>叫牌…</translation>
    </message>
    <message>
        <source>Hand result…</source>
        <translation>本盘结果…</translation>
    </message>
    <message>
        <source>Trick by trick…</source>
        <translation>逐墩录入…</translation>
    </message>
    <message>
        <source>Kitty…</source>
        <translation>底牌…</translation>
    </message>
    <message>
        <source>Violation…</source>
        <translation>违规…</translation>
    </message>
    <message>
        <source>Start thinking timer</source>
        <translation>开始思考计时</translation>
    </message>
    <message>
        <source>Record thinking-time overrun</source>
        <translation>记录思考超时</translation>
    </message>
    <message>
        <source>Pause or resume the clock…</source>
        <translation>暂停或继续比赛钟…</translation>
    </message>
    <message>
        <source>Note…</source>
        <translation>备注…</translation>
    </message>
    <message>
        <source>End of match…</source>
        <translation>比赛结束…</translation>
    </message>
    <message>
        <source>Rotate seats</source>
        <translation>旋转座位</translation>
    </message>
    <message>
        <source>Review: previous event</source>
        <translation>回看：上一事件</translation>
    </message>
    <message>
        <source>Review: next event</source>
        <translation>回看：下一事件</translation>
    </message>
    <message>
        <source>Leave review</source>
        <translation>退出回看</translation>
    </message>
    <message>
        <source>Sample referee</source>
        <translation>示例裁判</translation>
    </message>
    <message>
        <source>No Chinese font</source>
        <translation>没有中文字体</translation>
    </message>
    <message>
        <source>No installed font can show Chinese. On Linux install fonts-wqy-microhei (or fonts-noto-cjk).</source>
        <translation>没有可显示中文的字体。Linux 上请安装 fonts-wqy-microhei（或 fonts-noto-cjk）。</translation>
    </message>
</context>
<context>
    <name>MatchEndDialog</name>
    <message>
        <source>The match has not ended.</source>
        <translation>比赛尚未结束。</translation>
    </message>
    <message>
        <source>%1 wins</source>
        <translation>%1 获胜</translation>
    </message>
    <message>
        <source>End of match</source>
        <translation>比赛结束</translation>
    </message>
    <message>
        <source>After confirmation the match is locked: only notes and committee rulings can follow.</source>
        <translation>确认后比赛锁定：之后只能添加备注和仲裁裁决。</translation>
    </message>
</context>
<context>
    <name>MatchView</name>
    <message>
        <source>(dealer)</source>
        <translation>（庄）</translation>
    </message>
    <message>
        <source>(deals next)</source>
        <translation>（下盘坐庄）</translation>
    </message>
    <message>
        <source>Warnings %1</source>
        <translation>警告 %1</translation>
    </message>
    <message>
        <source>Overruns %1</source>
        <translation>超时 %1</translation>
    </message>
    <message>
        <source>referred to the committee</source>
        <translation>已报仲裁委员会</translation>
    </message>
    <message>
        <source>Hand %1 finished</source>
        <translation>第 %1 盘已结束</translation>
    </message>
    <message>
        <source>No hand yet</source>
        <translation>尚未开始第一盘</translation>
    </message>
    <message>
        <source>bidding</source>
        <translation>叫牌中</translation>
    </message>
    <message>
        <source>playing</source>
        <translation>打牌中</translation>
    </message>
    <message>
        <source>revoke: awaiting choice</source>
        <translation>劳改：待选择</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>voided</source>
        <translation>已作废</translation>
    </message>
    <message>
        <source>Hand %1 · %2</source>
        <translation>第 %1 盘 · %2</translation>
    </message>
    <message>
        <source>Trump %1 · playing %2</source>
        <translation>主 %1 · 打 %2</translation>
    </message>
    <message>
        <source>No trump · playing %1</source>
        <translation>无主 · 打 %1</translation>
    </message>
    <message>
        <source>Defenders&apos; points %1 after %2 tricks</source>
        <translation>防守方 %1 分（%2 墩后）</translation>
    </message>
    <message>
        <source>%1 shuffles</source>
        <translation>%1洗牌</translation>
    </message>
    <message>
        <source>%1 cuts</source>
        <translation>%1过牌</translation>
    </message>
    <message>
        <source>%1 deals</source>
        <translation>%1坐庄</translation>
    </message>
    <message>
        <source>dealer by bidding race</source>
        <translation>抢庄定庄家</translation>
    </message>
    <message>
        <source>Next hand: %1</source>
        <translation>下盘：%1</translation>
    </message>
    <message>
        <source>Round %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>%1 号桌</translation>
    </message>
    <message>
        <source>Referee %1</source>
        <translation>裁判 %1</translation>
    </message>
    <message>
        <source>Rules: %1</source>
        <translation>规则：%1</translation>
    </message>
    <message>
        <source>Match over: %1 wins (%2, %3)</source>
        <translation>比赛结束：%1 获胜（%2，%3）</translation>
    </message>
    <message>
        <source>confirm with End of match</source>
        <translation>请在“比赛结束”中确认</translation>
    </message>
    <message>
        <source>trump</source>
        <translation>主牌</translation>
    </message>
    <message>
        <source>%1 plays %2 in trick %3 after showing void in it</source>
        <translation>%1此前已表明没有%2，第 %3 墩却出了%2</translation>
    </message>
    <message>
        <source>%1 played %2 cards in hand %3, not %4</source>
        <translation>%1在第 %3 盘出了 %2 张牌，应为 %4 张</translation>
    </message>
    <message>
        <source>%1 did not follow as the cards held required in trick %2</source>
        <translation>第 %2 墩%1未按所持的牌跟牌</translation>
    </message>
    <message>
        <source>the record shows a possible violation</source>
        <translation>记录显示可能有违例</translation>
    </message>
    <message>
        <source>The record proves (check, then rule):</source>
        <translation>记录表明（请核实后裁定）：</translation>
    </message>
</context>
<context>
    <name>NumberField</name>
    <message>
        <source>%1: type a number.</source>
        <translation>%1：请输入数字。</translation>
    </message>
    <message>
        <source>%1: %2 is not between %3 and %4.</source>
        <translation>%1：%2 不在 %3 到 %4 之间。</translation>
    </message>
    <message>
        <source>%1: %2 is not a multiple of %3.</source>
        <translation>%1：%2 不是 %3 的倍数。</translation>
    </message>
</context>
<context>
    <name>OpenBidDialog</name>
    <message>
        <source>Open bid</source>
        <translation>明叫</translation>
    </message>
    <message>
        <source>A side that shows its bid openly loses its right to bid in this hand; the opponents decide whether to counter. No points change.</source>
        <translation>一方不慎明叫，失去本盘叫牌权；由对方决定是否反主。不改变分数。</translation>
    </message>
</context>
<context>
    <name>OpenMatchDialog</name>
    <message>
        <source>— start a new match —</source>
        <translation>— 开始新比赛 —</translation>
    </message>
    <message>
        <source>Enter the referee&apos;s name.</source>
        <translation>请输入裁判姓名。</translation>
    </message>
    <message>
        <source>round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>table</source>
        <translation>桌号</translation>
    </message>
    <message>
        <source>pair %1</source>
        <translation>%1队伍</translation>
    </message>
    <message>
        <source>player %1</source>
        <translation>%1选手</translation>
    </message>
    <message>
        <source>Fill in: %1</source>
        <translation>请填写：%1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Open or start a match</source>
        <translation>打开或开始比赛</translation>
    </message>
    <message>
        <source>Matches in this file</source>
        <translation>本文件中的比赛</translation>
    </message>
    <message>
        <source>New match</source>
        <translation>新比赛</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>桌号</translation>
    </message>
    <message>
        <source>Pair N–S</source>
        <translation>南北组合</translation>
    </message>
    <message>
        <source>Pair E–W</source>
        <translation>东西组合</translation>
    </message>
    <message>
        <source>North</source>
        <translation>北</translation>
    </message>
    <message>
        <source>South</source>
        <translation>南</translation>
    </message>
    <message>
        <source>East</source>
        <translation>东</translation>
    </message>
    <message>
        <source>West</source>
        <translation>西</translation>
    </message>
    <message>
        <source>Ruleset</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Referee sign-in</source>
        <translation>裁判登录</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <source>PIN</source>
        <translation>PIN 码</translation>
    </message>
</context>
<context>
    <name>OrganizerBracket</name>
    <message>
        <source>held: ruling pending</source>
        <translation>待仲裁</translation>
    </message>
</context>
<context>
    <name>OrganizerDrawDialog</name>
    <message>
        <source>Seeding and draw</source>
        <translation>种子与抽签</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>赛制</translation>
    </message>
    <message>
        <source>Third-place match</source>
        <translation>第三名决赛（三四名决赛）</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>小组数</translation>
    </message>
    <message>
        <source>Pairs advancing per group</source>
        <translation>每组出线组合数</translation>
    </message>
    <message>
        <source>Tie-break order</source>
        <translation>排名依据顺序</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Draw number</source>
        <translation>抽签号</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>%1 pairs, %2 seeded. Seeds take the standard bracket positions (byes go to the top seeds); the other pairs are placed by lot from the draw number.</source>
        <translation>共 %1 个组合，其中种子 %2 个。种子按标准位置进入对阵表（轮空给排名靠前的种子）；其余组合按抽签号抽签定位。</translation>
    </message>
</context>
<context>
    <name>OrganizerLinkDialog</name>
    <message>
        <source>Link a record to a drawn match</source>
        <translation>将记录关联到抽签产生的比赛</translation>
    </message>
    <message>
        <source>A desk recorded this match under its own id: count its record as the result of a drawn match.</source>
        <translation>某裁判台用自己的编号记录了这场比赛：将该记录计为抽签产生的某场比赛的结果。</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Drawn match</source>
        <translation>抽签产生的比赛</translation>
    </message>
    <message>
        <source>Choose a record and a drawn match.</source>
        <translation>请选择一条记录和一场抽签产生的比赛。</translation>
    </message>
</context>
<context>
    <name>OrganizerLotsDialog</name>
    <message>
        <source>Group %1: these pairs are still tied after the other criteria. Enter the lot each pair drew (1 ranks highest). The drawing is recorded once.</source>
        <translation>%1组：以下组合按其他排名依据仍然并列。请填写各组合抽到的签号（1 号排名最前）。抽签结果只记录一次。</translation>
    </message>
    <message>
        <source>Each pair needs a different lot.</source>
        <translation>每个组合的签号必须不同。</translation>
    </message>
    <message>
        <source>Drawing of lots</source>
        <translation>抽签</translation>
    </message>
</context>
<context>
    <name>OrganizerMatchesModel</name>
    <message>
        <source>Match</source>
        <translation>比赛</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>桌</translation>
    </message>
    <message>
        <source>Referee</source>
        <translation>裁判</translation>
    </message>
    <message>
        <source>Pair A</source>
        <translation>组合 A</translation>
    </message>
    <message>
        <source>Pair B</source>
        <translation>组合 B</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Winner</source>
        <translation>胜方</translation>
    </message>
    <message>
        <source>Levels at the end</source>
        <translation>终局级数</translation>
    </message>
    <message>
        <source>Decided by</source>
        <translation>胜负方式</translation>
    </message>
</context>
<context>
    <name>OrganizerNewDialog</name>
    <message>
        <source>New tournament</source>
        <translation>新建赛事</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>赛事名称</translation>
    </message>
    <message>
        <source>First day</source>
        <translation>开始日期</translation>
    </message>
    <message>
        <source>YYYY-MM-DD</source>
        <translation>年-月-日（如 2026-11-29）</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>结束日期</translation>
    </message>
    <message>
        <source>Venue</source>
        <translation>比赛地点</translation>
    </message>
    <message>
        <source>Organizer</source>
        <translation>主办单位</translation>
    </message>
    <message>
        <source>Tables (comma-separated)</source>
        <translation>比赛桌（用逗号分隔）</translation>
    </message>
    <message>
        <source>Referees (comma-separated)</source>
        <translation>裁判（用逗号分隔）</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>The tournament needs a name.</source>
        <translation>请填写赛事名称。</translation>
    </message>
    <message>
        <source>The last day is before the first day.</source>
        <translation>结束日期早于开始日期。</translation>
    </message>
    <message>
        <source>%1: “%2” is not a date like 2026-11-29.</source>
        <translation>%1：“%2”不是日期（应写成 2026-11-29 这样）。</translation>
    </message>
</context>
<context>
    <name>OrganizerPairDialog</name>
    <message>
        <source>Pair</source>
        <translation>组合</translation>
    </message>
    <message>
        <source>Player 1</source>
        <translation>选手1</translation>
    </message>
    <message>
        <source>Player 2</source>
        <translation>选手2</translation>
    </message>
    <message>
        <source>Club</source>
        <translation>俱乐部</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Add pair</source>
        <translation>添加组合</translation>
    </message>
    <message>
        <source>Edit pair</source>
        <translation>编辑组合</translation>
    </message>
</context>
<context>
    <name>OrganizerPairsModel</name>
    <message>
        <source>No.</source>
        <extracomment>The id (pair id or match id) of a row, for views and tests. The choices an editable cell offers (tables or referees of the tournament).</extracomment>
        <translation>编号</translation>
    </message>
    <message>
        <source>Player 1</source>
        <translation>选手1</translation>
    </message>
    <message>
        <source>Player 2</source>
        <translation>选手2</translation>
    </message>
    <message>
        <source>Club</source>
        <translation>俱乐部</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
</context>
<context>
    <name>OrganizerStandingsModel</name>
    <message>
        <source>Place</source>
        <translation>名次</translation>
    </message>
    <message>
        <source>Pair</source>
        <translation>组合</translation>
    </message>
    <message>
        <source>Played</source>
        <translation>已赛</translation>
    </message>
    <message>
        <source>Wins</source>
        <translation>胜</translation>
    </message>
    <message>
        <source>Losses</source>
        <translation>负</translation>
    </message>
    <message>
        <source>Level difference</source>
        <translation>终局级差</translation>
    </message>
    <message>
        <source>Lot</source>
        <translation>抽签</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>tied: a drawing of lots is needed</source>
        <translation>并列：需要抽签</translation>
    </message>
    <message>
        <source>tied</source>
        <translation>并列</translation>
    </message>
</context>
<context>
    <name>OrganizerTabs</name>
    <message>
        <source>Match</source>
        <translation>比赛</translation>
    </message>
    <message>
        <source>Tournament</source>
        <translation>赛事</translation>
    </message>
</context>
<context>
    <name>OrganizerTexts</name>
    <message>
        <source>waiting</source>
        <translation>待定</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>待赛</translation>
    </message>
    <message>
        <source>playing</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>held: committee ruling pending</source>
        <translation>待仲裁（仲裁裁定未出，本分支暂停）</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>已赛</translation>
    </message>
    <message>
        <source>bye</source>
        <translation>轮空</translation>
    </message>
    <message>
        <source>passed A</source>
        <translation>打过A</translation>
    </message>
    <message>
        <source>time-out, higher level</source>
        <translation>到时·级高者胜</translation>
    </message>
    <message>
        <source>time-out, equal level, holding the deal</source>
        <translation>到时·同级坐庄方胜</translation>
    </message>
    <message>
        <source>forfeit</source>
        <translation>弃权</translation>
    </message>
    <message>
        <source>disqualification</source>
        <translation>取消资格</translation>
    </message>
    <message>
        <source>committee ruling</source>
        <translation>仲裁裁定</translation>
    </message>
    <message>
        <source>W/O (forfeit)</source>
        <translation>弃权</translation>
    </message>
    <message>
        <source>DQ (disqualification)</source>
        <translation>取消资格</translation>
    </message>
    <message>
        <source>committee</source>
        <translation>仲裁</translation>
    </message>
    <message>
        <source>Single elimination</source>
        <translation>单败淘汰</translation>
    </message>
    <message>
        <source>Round-robin groups, then a knockout</source>
        <translation>小组循环赛，再进行淘汰赛</translation>
    </message>
    <message>
        <source>match wins</source>
        <translation>胜场</translation>
    </message>
    <message>
        <source>level difference at the end</source>
        <translation>终局级差</translation>
    </message>
    <message>
        <source>head-to-head</source>
        <translation>相互胜负</translation>
    </message>
    <message>
        <source>drawing of lots</source>
        <translation>抽签</translation>
    </message>
    <message>
        <source>Tie-break order: %1</source>
        <translation>排名依据顺序：%1</translation>
    </message>
    <message>
        <source>winner of %1</source>
        <translation>%1 胜者</translation>
    </message>
    <message>
        <source>loser of %1</source>
        <translation>%1 负者</translation>
    </message>
    <message>
        <source>group %1, place %2</source>
        <translation>%1组第%2名</translation>
    </message>
    <message>
        <source>group %1, round %2</source>
        <translation>%1组 第%2轮</translation>
    </message>
    <message>
        <source>third place</source>
        <translation>第三名决赛</translation>
    </message>
    <message>
        <source>final</source>
        <translation>决赛</translation>
    </message>
    <message>
        <source>semifinal</source>
        <translation>半决赛</translation>
    </message>
    <message>
        <source>quarterfinal</source>
        <translation>四分之一决赛</translation>
    </message>
    <message>
        <source>round %1</source>
        <translation>第%1轮</translation>
    </message>
</context>
<context>
    <name>OrganizerSignInDialog</name>
    <message>
        <source>Organizer sign-in</source>
        <translation>主办方登录</translation>
    </message>
    <message>
        <source>Organizer</source>
        <translation>主办方</translation>
    </message>
    <message>
        <source>PIN</source>
        <translation>PIN 码</translation>
    </message>
    <message>
        <source>This tournament file has PINs: only the organizer brings the desks&apos; records in. Sign in with the organizer&apos;s name and PIN.</source>
        <translation>本赛事文件设有 PIN 码：只有主办方可以导入各桌的比赛记录。请输入主办方的姓名和 PIN 码登录。</translation>
    </message>
    <message>
        <source>Enter the organizer&apos;s name.</source>
        <translation>请输入主办方的姓名。</translation>
    </message>
</context>
<context>
    <name>OrganizerView</name>
    <message>
        <source>&amp;Export</source>
        <extracomment>The organizer works at a desk, not a card table: smaller buttons than the match view.</extracomment>
        <translation>导出(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Tournament</source>
        <translation>赛事(&amp;T)</translation>
    </message>
    <message>
        <source>New tournament…</source>
        <translation>新建赛事…</translation>
    </message>
    <message>
        <source>Add pair…</source>
        <translation>添加组合…</translation>
    </message>
    <message>
        <source>Edit pair…</source>
        <translation>编辑组合…</translation>
    </message>
    <message>
        <source>Remove pair</source>
        <translation>删除组合</translation>
    </message>
    <message>
        <source>Import pair list (CSV or xlsx)…</source>
        <translation>导入组合名单（CSV 或 xlsx）…</translation>
    </message>
    <message>
        <source>Import match records from desks…</source>
        <translation>导入各裁判台的比赛记录…</translation>
    </message>
    <message>
        <source>Link a record to a drawn match…</source>
        <translation>将记录关联到抽签产生的比赛…</translation>
    </message>
    <message>
        <source>Record a drawing of lots…</source>
        <translation>记录抽签结果…</translation>
    </message>
    <message>
        <source>Refresh results</source>
        <translation>刷新成绩</translation>
    </message>
    <message>
        <source>Bracket sheet (xlsx)…</source>
        <translation>对阵表（xlsx）…</translation>
    </message>
    <message>
        <source>Results (PDF)…</source>
        <translation>成绩公告（PDF）…</translation>
    </message>
    <message>
        <source>Match report of the selected match (PDF)…</source>
        <translation>所选比赛的比赛报告（PDF）…</translation>
    </message>
    <message>
        <source>Blank table scoresheet (PDF)…</source>
        <translation>空白比赛记录表（PDF）…</translation>
    </message>
    <message>
        <source>Round pack: pairings, table cards, scoresheets (PDF)…</source>
        <translation>轮次资料包：对阵表、桌牌、记分表（PDF）…</translation>
    </message>
    <message>
        <source>Player index: find your table (PDF)…</source>
        <translation>选手索引：查找你的桌号（PDF）…</translation>
    </message>
    <message>
        <source>Bold: the winner. Red marks: wins by forfeit (8.10), disqualification (8.8) or committee ruling (8.11). Orange: held while a committee ruling is pending.</source>
        <translation>粗体：胜方。红色标记：因弃权（8.10）、取消资格（8.8）或仲裁裁定（8.11）获胜。橙色：仲裁裁定未出，暂停晋级。</translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>No tournament file open</source>
        <translation>未打开赛事文件</translation>
    </message>
    <message>
        <source>This file holds no tournament</source>
        <translation>此文件中没有赛事</translation>
    </message>
    <message>
        <source>Open a tournament file (File ▸ Open) or create a new tournament.</source>
        <translation>请打开赛事文件（文件 ▸ 打开）或新建赛事。</translation>
    </message>
    <message>
        <source>on the server %1</source>
        <translation>在服务器 %1 上</translation>
    </message>
    <message>
        <source>third-place match</source>
        <translation>设第三名决赛</translation>
    </message>
    <message>
        <source>ruleset %1</source>
        <translation>规则 %1</translation>
    </message>
    <message>
        <source>drawn (draw number %1)</source>
        <translation>已抽签（抽签号 %1）</translation>
    </message>
    <message>
        <source>%1 pairs registered, not drawn yet</source>
        <translation>已登记 %1 个组合，尚未抽签</translation>
    </message>
    <message>
        <source>Group %1 (complete)</source>
        <translation>%1组（已赛完）</translation>
    </message>
    <message>
        <source>Group %1 (in progress)</source>
        <translation>%1组（进行中）</translation>
    </message>
    <message>
        <source>This view shows the tournament on the server; a new tournament is a new file (File ▸ Open leaves the server&apos;s view).</source>
        <translation>此处显示的是服务器上的赛事；新建赛事会新建一个文件（“文件 ▸ 打开”即离开服务器视图）。</translation>
    </message>
    <message>
        <source>No tournament</source>
        <translation>没有赛事</translation>
    </message>
    <message>
        <source>Open a tournament file or create a new tournament first.</source>
        <translation>请先打开赛事文件或新建赛事。</translation>
    </message>
    <message>
        <source>New tournament file</source>
        <translation>新赛事文件</translation>
    </message>
    <message>
        <source>Tournament files (*.sqlite *.db)</source>
        <translation>赛事文件 (*.sqlite *.db)</translation>
    </message>
    <message>
        <source>Choose where to keep the tournament file.</source>
        <translation>请选择赛事文件的保存位置。</translation>
    </message>
    <message>
        <source>Tournament created: %1</source>
        <translation>赛事已创建：%1</translation>
    </message>
    <message>
        <source>No pair</source>
        <translation>未选择组合</translation>
    </message>
    <message>
        <source>Select a pair in the list first.</source>
        <translation>请先在列表中选择一个组合。</translation>
    </message>
    <message>
        <source>Remove pair %1 (%2)?</source>
        <translation>删除组合 %1（%2）？</translation>
    </message>
    <message>
        <source>Pair not removed</source>
        <translation>组合未删除</translation>
    </message>
    <message>
        <source>Import a pair list</source>
        <translation>导入组合名单</translation>
    </message>
    <message>
        <source>Pair lists (*.csv *.xlsx);;All files (*)</source>
        <translation>组合名单 (*.csv *.xlsx);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Pair list not read</source>
        <translation>未能读取组合名单</translation>
    </message>
    <message>
        <source>Pair list partly imported</source>
        <translation>组合名单只导入了一部分</translation>
    </message>
    <message>
        <source>%1 of %2 pairs were registered; the next one was refused:
%3</source>
        <translation>%2 个组合中已登记 %1 个；下一个被拒绝：
%3</translation>
    </message>
    <message>
        <source>%1 pairs registered from %2</source>
        <translation>已从 %2 登记 %1 个组合</translation>
    </message>
    <message>
        <source>No tournament is open.</source>
        <translation>没有打开的赛事。</translation>
    </message>
    <message>
        <source>Draw made (draw number %1)</source>
        <translation>抽签完成（抽签号 %1）</translation>
    </message>
    <message>
        <source>Import match records</source>
        <translation>导入比赛记录</translation>
    </message>
    <message>
        <source>Match records (*.jsonl *.sqlite *.db);;All files (*)</source>
        <translation>比赛记录 (*.jsonl *.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Records not imported</source>
        <translation>记录未导入</translation>
    </message>
    <message>
        <source>Match records imported</source>
        <translation>比赛记录已导入</translation>
    </message>
    <message>
        <source>Added: %1 events in %2 matches.</source>
        <translation>新增：%2 场比赛共 %1 条记录。</translation>
    </message>
    <message>
        <source>Unchanged: %1 matches.</source>
        <translation>无变化：%1 场比赛。</translation>
    </message>
    <message>
        <source>Conflicts: %1.</source>
        <translation>冲突：%1 处。</translation>
    </message>
    <message>
        <source>Conflict in match %1 from %2: %3 (nothing was guessed; the committee must decide which record is right)</source>
        <translation>比赛 %1（来自 %2）记录冲突：%3（系统不作推测；须由仲裁委员会决定哪份记录正确）</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>被拒绝：%1</translation>
    </message>
    <message>
        <source>Record %1 counts for %2 (pairs #%3 and #%4).</source>
        <translation>记录 %1 计入比赛 %2（#%3 与 #%4 两对）。</translation>
    </message>
    <message>
        <source>Recorded under a desk&apos;s own id (link them to their drawn matches with “Link a record…”): %1</source>
        <translation>以裁判台自己的编号记录（请用“关联记录…”关联到抽签产生的比赛）：%1</translation>
    </message>
    <message>
        <source>Nothing to link</source>
        <translation>没有需要关联的记录</translation>
    </message>
    <message>
        <source>Every imported record already counts for a drawn match.</source>
        <translation>所有导入的记录都已计入抽签产生的比赛。</translation>
    </message>
    <message>
        <source>Assignment refused</source>
        <translation>安排被拒绝</translation>
    </message>
    <message>
        <source>No match selected</source>
        <extracomment>The documents of File ▸ Export, by kind.</extracomment>
        <translation>未选择比赛</translation>
    </message>
    <message>
        <source>Select a match in the bracket or in the matches list first.</source>
        <translation>请先在对阵表或比赛列表中选择一场比赛。</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>Round pack</source>
        <translation>轮次资料包</translation>
    </message>
    <message>
        <source>Round:</source>
        <translation>轮次：</translation>
    </message>
    <message>
        <source>Export refused</source>
        <translation>导出被拒绝</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Writing %1: %2</source>
        <translation>正在写入 %1：%2</translation>
    </message>
    <message>
        <source>Written: %1</source>
        <translation>已写入：%1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>%1 could not be written:
%2</source>
        <translation>无法写入 %1：
%2</translation>
    </message>
    <message>
        <source>Make the draw first: there is nothing to print yet.</source>
        <translation>请先抽签：目前没有可打印的内容。</translation>
    </message>
    <message>
        <source>Select a match first.</source>
        <translation>请先选择一场比赛。</translation>
    </message>
    <message>
        <source>Match %1 has no record in this file yet.</source>
        <translation>比赛 %1 在此文件中还没有记录。</translation>
    </message>
    <message>
        <source>Export finished</source>
        <translation>导出完成</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>match report</source>
        <translation>比赛报告</translation>
    </message>
    <message>
        <source>scoresheet</source>
        <translation>记分表</translation>
    </message>
    <message>
        <source>round pack</source>
        <translation>轮次资料包</translation>
    </message>
    <message>
        <source>player index</source>
        <translation>选手索引</translation>
    </message>
    <message>
        <source>information sheet</source>
        <translation>赛事信息页</translation>
    </message>
    <message>
        <source>group sheets</source>
        <translation>小组表</translation>
    </message>
    <message>
        <source>match list</source>
        <translation>比赛列表</translation>
    </message>
    <message>
        <source>pages</source>
        <translation>页面</translation>
    </message>
    <message>
        <source>Import pair list…</source>
        <translation>导入组合名单…</translation>
    </message>
    <message>
        <source>Seeding and draw…</source>
        <translation>种子与抽签…</translation>
    </message>
    <message>
        <source>Import match records…</source>
        <translation>导入比赛记录…</translation>
    </message>
    <message>
        <source>Link a record…</source>
        <translation>关联记录…</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>组合</translation>
    </message>
    <message>
        <source>Bracket</source>
        <translation>对阵表</translation>
    </message>
    <message>
        <source>Group standings</source>
        <translation>小组积分榜</translation>
    </message>
    <message>
        <source>Matches and assignment</source>
        <translation>比赛与桌次、裁判安排</translation>
    </message>
    <message>
        <source>Double-click the table or referee of a match to assign it.</source>
        <translation>双击比赛的“桌”或“裁判”一栏进行安排。</translation>
    </message>
    <message>
        <source>No tournament on the server</source>
        <translation>服务器上还没有赛事</translation>
    </message>
    <message>
        <source>Server not reached</source>
        <translation>连不上服务器</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Results refresh as the desks record: %1</source>
        <translation>各桌记录时成绩随即刷新：%1</translation>
    </message>
    <message>
        <source>Not live: server not reached, retrying</source>
        <translation>未实时：连不上服务器，正在重试</translation>
    </message>
    <message>
        <source>Connecting to the server…</source>
        <translation>正在连接服务器…</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>the server holds no tournament yet: create it with referee-desk tournament create %1 --name …</source>
        <translation>服务器上还没有赛事：请用 referee-desk tournament create %1 --name … 建立</translation>
    </message>
    <message>
        <source>Tournament on the server: %1</source>
        <translation>服务器上的赛事：%1</translation>
    </message>
    <message>
        <source>The server&apos;s tournament cannot be opened</source>
        <translation>无法打开服务器上的赛事</translation>
    </message>
    <message>
        <source>The server is set up, but %1.

Press F5 once it is created.</source>
        <translation>服务器已设置好，但%1。

建立后按 F5。</translation>
    </message>
    <message>
        <source>The tournament on the server cannot be opened:
%1

Check that the server runs and the address and password are right, then press F5 to try again.</source>
        <translation>无法打开服务器上的赛事：
%1

请确认服务器正在运行、地址和密码正确，然后按 F5 重试。</translation>
    </message>
    <message>
        <source>The results could not be read again: %1</source>
        <translation>无法重新读取成绩：%1</translation>
    </message>
</context>
<context>
    <name>OverrunDialog</name>
    <message>
        <source>Thinking-time overrun</source>
        <translation>思考超时</translation>
    </message>
    <message>
        <source>Each play must be made within the thinking time (10 seconds unless the ruleset says otherwise); an overrun is recorded.</source>
        <translation>每次出牌须在思考时间内完成（除规则另有规定外为 10 秒）；超时予以记录。</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <extracomment>Qt 6 strings its own qtbase_zh_CN.qm lacks (Qt 6 added an accelerator to them, the catalogue still has the old source). Named here so lupdate puts them in the desk&apos;s catalogue under Qt&apos;s context; Qt asks every installed translator, so they show.</extracomment>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>A reason is required.</source>
        <translation>必须填写原因。</translation>
    </message>
</context>
<context>
    <name>RecoverDialog</name>
    <message>
        <source>Damaged tournament file</source>
        <extracomment>How many of the newest backups the dialog offers.</extracomment>
        <translation>赛事文件已损坏</translation>
    </message>
    <message>
        <source>The file %1 cannot be opened:
%2

Restore one of its automatic backups? The damaged file is kept beside it.</source>
        <translation>无法打开文件 %1：
%2

要恢复它的一个自动备份吗？损坏的文件会保留在旁边。</translation>
    </message>
    <message>
        <source>%1 — %2 events — %3</source>
        <translation>%1 — %2 条记录 — %3</translation>
    </message>
    <message>
        <source>Restore this backup</source>
        <translation>恢复此备份</translation>
    </message>
    <message>
        <source>Choose a backup.</source>
        <translation>请选择一个备份。</translation>
    </message>
</context>
<context>
    <name>Refusals</name>
    <message>
        <source>the file could not be written (full disk, or read-only)</source>
        <extracomment>Store keys (``StoreError.keyed``) → (English, Chinese) templates with ``{param}``.</extracomment>
        <translation>文件无法写入（磁盘已满或文件只读）</translation>
    </message>
    <message>
        <source>another desk recorded in this match since: its entries are now shown</source>
        <translation>另一台裁判台刚刚在这场比赛中记录了内容，现已显示</translation>
    </message>
    <message>
        <source>not allowed: wrong name or PIN, not this match&apos;s referee, or the match is locked</source>
        <translation>不允许：姓名或 PIN 不对、不是这场比赛的裁判，或比赛已锁定</translation>
    </message>
    <message>
        <source>the tournament file is damaged</source>
        <translation>赛事文件已损坏</translation>
    </message>
    <message>
        <source>this is not a tournament file</source>
        <translation>这不是赛事文件</translation>
    </message>
    <message>
        <source>the file cannot be read (permissions or disk)</source>
        <translation>文件无法读取（权限或磁盘问题）</translation>
    </message>
    <message>
        <source>the file was made by a newer Referee Desk</source>
        <translation>此文件由更新版本的裁判台创建</translation>
    </message>
    <message>
        <source>the import was refused as a whole: nothing was imported</source>
        <translation>导入被整体拒绝：没有导入任何内容</translation>
    </message>
    <message>
        <source>the match layer refused the entry: nothing was written</source>
        <translation>记录不符合规则：没有写入任何内容</translation>
    </message>
    <message>
        <source>the tournament file refused the entry</source>
        <translation>赛事文件拒绝了这条记录</translation>
    </message>
    <message>
        <source>cannot reach the server (is it running? right address and port?)</source>
        <translation>连不上服务器（服务器是否在运行？地址和端口是否正确？）</translation>
    </message>
    <message>
        <source>the server refused the login (user name, password or database wrong)</source>
        <translation>服务器拒绝登录（用户名、密码或数据库不对）</translation>
    </message>
    <message>
        <source>not a server address: write postgresql://user:password@host:port/database</source>
        <translation>不是服务器地址：请写成 postgresql://用户:密码@主机:端口/数据库</translation>
    </message>
    <message>
        <source>this database is not a Referee Desk server (run referee-desk server init)</source>
        <translation>此数据库不是裁判台服务器（请先运行 referee-desk server init）</translation>
    </message>
    <message>
        <source>the server was set up by another version of Referee Desk</source>
        <translation>服务器由另一版本的裁判台建立</translation>
    </message>
    <message>
        <source>the server refused this</source>
        <translation>服务器拒绝了此操作</translation>
    </message>
    <message>
        <source>the tournament server answered an error</source>
        <translation>赛事服务器返回了错误</translation>
    </message>
    <message>
        <source>the pair cannot be accepted</source>
        <translation>该组合无法登记</translation>
    </message>
    <message>
        <source>the draw cannot be made or changed so</source>
        <translation>无法这样抽签或更改抽签</translation>
    </message>
    <message>
        <source>the result does not fit its match</source>
        <translation>该结果与比赛不符</translation>
    </message>
    <message>
        <source>the tournament refused this</source>
        <translation>赛事拒绝了这项操作</translation>
    </message>
    <message>
        <source>“%1” is not a card: write a suit S H D C and a rank (H10, SK), or LJ / BJ</source>
        <translation>“%1”不是一张牌：请写花色 S H D C 加点数（如 H10、SK），或 LJ / BJ</translation>
    </message>
    <message>
        <source>these cards do not make a valid play</source>
        <translation>这些牌不构成有效的出牌</translation>
    </message>
</context>
<context>
    <name>RevokeDialog</name>
    <message>
        <source>Revoke (劳改)</source>
        <translation>劳改</translation>
    </message>
    <message>
        <source>Having a card and not playing it, not following, following wrongly or holding too many or too few cards, found once the next trick has begun: the hand ends at once. The non-offending side chooses: A) it goes up two levels (taking the deal if it was defending); B) 160 is added to the defenders&apos; points (declarer offended) or taken from them (defender offended).</source>
        <translation>有牌不出、不按规定跟牌、跟错牌或多牌少牌，在下一轮开始后发现：本盘立即结束。由非违规方选择：A）升两级（如为防守方则同时上台）；B）庄家方违规时防守方得分加 160，防守方违规时减 160。</translation>
    </message>
    <message>
        <source>Choice made by</source>
        <translation>选择者</translation>
    </message>
    <message>
        <source>had a card and did not play it</source>
        <translation>有牌不出</translation>
    </message>
    <message>
        <source>did not follow as required</source>
        <translation>未按规定跟牌</translation>
    </message>
    <message>
        <source>followed wrongly</source>
        <translation>跟错牌</translation>
    </message>
    <message>
        <source>too many or too few cards</source>
        <translation>多牌或少牌</translation>
    </message>
    <message>
        <source>A: up two levels</source>
        <translation>A：升两级</translation>
    </message>
    <message>
        <source>B: 160 points</source>
        <translation>B：160 分</translation>
    </message>
    <message>
        <source>Points captured by the defenders (in cards)</source>
        <translation>防守方所得牌分（不含罚分）</translation>
    </message>
    <message>
        <source>B: the defenders&apos; points as they stand are %1 (recorded tricks and 8.2).</source>
        <translation>选 B：防守方现有得分为 %1（已记录的各墩与 8.2 罚分）。</translation>
    </message>
    <message>
        <source>B: the points as they stand are the captured points %2 %1 from 8.2 wrong plays.</source>
        <translation>选 B：防守方现有得分 = 所得牌分 %2 %1（8.2 出错牌罚分）。</translation>
    </message>
    <message>
        <source>%1 chooses %2</source>
        <translation>%1选择 %2</translation>
    </message>
</context>
<context>
    <name>Ruleset</name>
    <message>
        <source>decks</source>
        <translation>牌副数</translation>
    </message>
    <message>
        <source>bridge level gap</source>
        <translation>级牌空档相连</translation>
    </message>
    <message>
        <source>a triple lead spares tractors</source>
        <translation>出三张不拆拖拉机</translation>
    </message>
    <message>
        <source>last trick scoring</source>
        <translation>最后一墩计分</translation>
    </message>
    <message>
        <source>points to take the deal</source>
        <translation>上台分</translation>
    </message>
    <message>
        <source>points per level</source>
        <translation>每级分差</translation>
    </message>
    <message>
        <source>A must be played</source>
        <translation>必打A</translation>
    </message>
    <message>
        <source>dealer rotation</source>
        <translation>轮庄</translation>
    </message>
    <message>
        <source>when nobody bids</source>
        <translation>无人叫牌时</translation>
    </message>
    <message>
        <source>wrong play: points per card</source>
        <translation>出错牌每张罚分</translation>
    </message>
    <message>
        <source>revoke established</source>
        <translation>劳改成立</translation>
    </message>
    <message>
        <source>thinking time (seconds)</source>
        <translation>思考时间（秒）</translation>
    </message>
    <message>
        <source>an overrun counts as a warning</source>
        <translation>超时计为警告</translation>
    </message>
    <message>
        <source>match time (minutes)</source>
        <translation>比赛时间（分钟）</translation>
    </message>
    <message>
        <source>at time-out</source>
        <translation>时间到时</translation>
    </message>
    <message>
        <source>kitty cards</source>
        <translation>底牌张数</translation>
    </message>
    <message>
        <source>levels played</source>
        <translation>打的级数</translation>
    </message>
    <message>
        <source>fixed trump ranks</source>
        <translation>常主</translation>
    </message>
    <message>
        <source>2s also fixed trumps (three decks)</source>
        <translation>2 也为常主（三副牌）</translation>
    </message>
    <message>
        <source>bombs beat tractors</source>
        <translation>炸弹大于拖拉机</translation>
    </message>
    <message>
        <source>level cards and jokers join trump tractors</source>
        <translation>级牌、王可连成主拖拉机</translation>
    </message>
    <message>
        <source>throws allowed</source>
        <translation>允许甩牌</translation>
    </message>
    <message>
        <source>failed throw: points</source>
        <translation>甩牌失败：罚分</translation>
    </message>
    <message>
        <source>kitty multiplier</source>
        <translation>抠底倍数</translation>
    </message>
    <message>
        <source>shutout bonus (levels)</source>
        <translation>光头加级</translation>
    </message>
    <message>
        <source>most levels per hand</source>
        <translation>每局最多升级</translation>
    </message>
    <message>
        <source>points below 0 count as 0 in the table</source>
        <translation>负分按 0 分计级</translation>
    </message>
    <message>
        <source>passing A needs a kitty dig</source>
        <translation>过 A 须抠底</translation>
    </message>
    <message>
        <source>level fallen back to from A</source>
        <translation>打 A 未抠底退回</translation>
    </message>
    <message>
        <source>concealed card (藏张) rule</source>
        <translation>藏张规则</translation>
    </message>
    <message>
        <source>concealed card: points</source>
        <translation>藏张：分数</translation>
    </message>
    <message>
        <source>a bid shows a little joker</source>
        <translation>叫牌须亮小王</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>points × cards</source>
        <translation>分数 × 张数</translation>
    </message>
    <message>
        <source>points + points × cards</source>
        <translation>分数 + 分数 × 张数</translation>
    </message>
    <message>
        <source>partner, or the next seat</source>
        <translation>对家或下家</translation>
    </message>
    <message>
        <source>redeal the first hand, else no-trump</source>
        <translation>第一盘重发，其后打无主</translation>
    </message>
    <message>
        <source>once the next trick has begun</source>
        <translation>下一墩开始后</translation>
    </message>
    <message>
        <source>the hand in play is finished</source>
        <translation>打完当前一盘</translation>
    </message>
    <message>
        <source>play stops at once</source>
        <translation>立即停止</translation>
    </message>
    <message>
        <source>kitty × multiplier to the defenders</source>
        <translation>底牌分×倍数归闲家</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>by the last lead&apos;s shape</source>
        <translation>按最后一轮首出牌型</translation>
    </message>
    <message>
        <source>2 to the power of the largest unit&apos;s cards</source>
        <translation>2 的最大牌型张数次方</translation>
    </message>
    <message>
        <source>3 to A</source>
        <translation>3 到 A</translation>
    </message>
    <message>
        <source>2 to A</source>
        <translation>2 到 A</translation>
    </message>
    <message>
        <source>10 and 2</source>
        <translation>10 和 2</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Seat nearest the referee</source>
        <translation>离裁判最近的座位</translation>
    </message>
    <message>
        <source>Tournament server</source>
        <translation>赛事服务器</translation>
    </message>
    <message>
        <source>postgresql://… (empty: this desk does not sync)</source>
        <translation>postgresql://…（留空：本桌不同步）</translation>
    </message>
    <message>
        <source>Not a server address (postgresql://user:password@host:port/db).</source>
        <translation>不是服务器地址（postgresql://用户:密码@主机:端口/数据库）。</translation>
    </message>
</context>
<context>
    <name>SyncStatus</name>
    <message>
        <source>Conflict: match %1, event %2</source>
        <translation>冲突：比赛 %1，第 %2 条</translation>
    </message>
    <message>
        <source>Synced</source>
        <translation>已同步</translation>
    </message>
    <message>
        <source>%1 events waiting</source>
        <translation>%1 条待上传</translation>
    </message>
    <message>
        <source>%1 (server not reached)</source>
        <translation>%1（连不上服务器）</translation>
    </message>
    <message>
        <source>Server: %1</source>
        <translation>服务器：%1</translation>
    </message>
    <message>
        <source>Last push: %1</source>
        <translation>上次上传：%1</translation>
    </message>
    <message>
        <source>Not reached: %1</source>
        <translation>连不上：%1</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Server not reached</source>
        <translation>连不上服务器</translation>
    </message>
    <message>
        <source>The drawn matches could not be fetched: %1
This desk records into %2 and sends it when the server answers.</source>
        <translation>未能取回抽签的比赛：%1
本桌记录在 %2，服务器恢复后自动上传。</translation>
    </message>
    <message>
        <source>%1 drawn matches fetched from the server</source>
        <translation>已从服务器取回 %1 场抽签比赛</translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <source>record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>nobody bid</source>
        <translation>无人叫牌</translation>
    </message>
    <message>
        <source>North</source>
        <translation>北</translation>
    </message>
    <message>
        <source>East</source>
        <translation>东</translation>
    </message>
    <message>
        <source>South</source>
        <translation>南</translation>
    </message>
    <message>
        <source>West</source>
        <translation>西</translation>
    </message>
    <message>
        <source>N–S</source>
        <translation>南北</translation>
    </message>
    <message>
        <source>E–W</source>
        <translation>东西</translation>
    </message>
    <message>
        <source>declarers</source>
        <translation>庄家方</translation>
    </message>
    <message>
        <source>defenders</source>
        <translation>防守方</translation>
    </message>
    <message>
        <source>no-trump</source>
        <translation>无主</translation>
    </message>
    <message>
        <source>match opened</source>
        <translation>开赛登记</translation>
    </message>
    <message>
        <source>clock started</source>
        <translation>开始计时</translation>
    </message>
    <message>
        <source>clock paused</source>
        <translation>暂停计时</translation>
    </message>
    <message>
        <source>clock resumed</source>
        <translation>继续计时</translation>
    </message>
    <message>
        <source>hand started</source>
        <translation>开始新一盘</translation>
    </message>
    <message>
        <source>bid</source>
        <translation>叫牌</translation>
    </message>
    <message>
        <source>open bid</source>
        <translation>明叫</translation>
    </message>
    <message>
        <source>false bid</source>
        <translation>诈叫</translation>
    </message>
    <message>
        <source>trump named after a false bid</source>
        <translation>诈叫后指定主牌</translation>
    </message>
    <message>
        <source>bidding closed</source>
        <translation>叫牌结束</translation>
    </message>
    <message>
        <source>redeal</source>
        <translation>重新发牌</translation>
    </message>
    <message>
        <source>trick</source>
        <translation>一墩</translation>
    </message>
    <message>
        <source>hand result</source>
        <translation>本盘结果</translation>
    </message>
    <message>
        <source>wrong play</source>
        <translation>出错牌</translation>
    </message>
    <message>
        <source>revoke</source>
        <translation>劳改</translation>
    </message>
    <message>
        <source>penalty choice</source>
        <translation>罚则选择</translation>
    </message>
    <message>
        <source>wrong dealer</source>
        <translation>坐庄顺序错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>committee decision</source>
        <translation>仲裁委员会决定</translation>
    </message>
    <message>
        <source>thinking-time overrun</source>
        <translation>思考超时</translation>
    </message>
    <message>
        <source>forfeit</source>
        <translation>弃权</translation>
    </message>
    <message>
        <source>committee ruling</source>
        <translation>仲裁裁决</translation>
    </message>
    <message>
        <source>correction</source>
        <translation>更正</translation>
    </message>
    <message>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>match ended</source>
        <translation>比赛结束</translation>
    </message>
    <message>
        <source>kitty buried</source>
        <translation>埋底</translation>
    </message>
    <message>
        <source>failed throw</source>
        <translation>甩牌失败</translation>
    </message>
    <message>
        <source>concealed card</source>
        <translation>藏张</translation>
    </message>
    <message>
        <source>Guilin 2009 (four decks)</source>
        <translation>桂林 2009（四副牌）</translation>
    </message>
    <message>
        <source>QQ four decks</source>
        <translation>QQ 四副牌</translation>
    </message>
    <message>
        <source>three decks</source>
        <translation>三副牌</translation>
    </message>
    <message>
        <source>bid (level cards shown)</source>
        <translation>亮主</translation>
    </message>
    <message>
        <source>dark bid</source>
        <translation>暗叫</translation>
    </message>
    <message>
        <source>counter</source>
        <translation>反主</translation>
    </message>
    <message>
        <source>reinforce</source>
        <translation>加固</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>过</translation>
    </message>
    <message>
        <source>passed A</source>
        <translation>打过A</translation>
    </message>
    <message>
        <source>time-out</source>
        <translation>时间到</translation>
    </message>
    <message>
        <source>disqualification</source>
        <translation>取消资格</translation>
    </message>
</context>
<context>
    <name>ThrowFailedDialog</name>
    <message>
        <source>Failed throw (甩牌失败)</source>
        <translation>甩牌失败</translation>
    </message>
    <message>
        <source>A lead of several units of one suit (甩牌) fails when an opponent holds a unit of the same shape that beats one of its parts; the opponent shows it. The thrower plays only the smallest beaten part; the other cards go back to the hand.</source>
        <translation>同一门多个牌型一起首出（甩牌）时，若对方持有同牌型且更大的牌，甩牌失败，由对方亮出。甩牌者只出被管住的最小部分，其余牌收回手中。</translation>
    </message>
    <message>
        <source>Each failed throw costs %1 points (002): taken from the defenders if a defender threw, given to them if a declarer threw.</source>
        <translation>每次甩错牌罚 %1 分（002）：闲家甩错扣闲家得分，庄家甩错加给闲家。</translation>
    </message>
    <message>
        <source>Thrower</source>
        <translation>甩牌者</translation>
    </message>
    <message>
        <source>Cards shown by</source>
        <translation>亮牌者</translation>
    </message>
    <message>
        <source>Cards thrown</source>
        <translation>甩出的牌</translation>
    </message>
    <message>
        <source>Cards shown</source>
        <translation>亮出的牌</translation>
    </message>
    <message>
        <source>Forced play</source>
        <translation>必须出的牌</translation>
    </message>
    <message>
        <source>%1: enter the cards.</source>
        <translation>%1：请填写牌。</translation>
    </message>
    <message>
        <source>Forced play: %1</source>
        <translation>必须出：%1</translation>
    </message>
</context>
<context>
    <name>TrickDialog</name>
    <message>
        <source>A trick has four plays; %1 were typed.</source>
        <extracomment>One card token of the notation (``H10``/``HT``, ``♥5``, ``LJ``), for plays typed together.</extracomment>
        <translation>一墩只有四家出牌，输入了 %1 家。</translation>
    </message>
    <message>
        <source>Trick %1</source>
        <translation>第 %1 墩</translation>
    </message>
    <message>
        <source>(leads)</source>
        <translation>（首出）</translation>
    </message>
    <message>
        <source>Record trick</source>
        <translation>记录本墩</translation>
    </message>
    <message>
        <source>Defenders&apos; points recorded so far: %1</source>
        <translation>已记录防守方得分：%1</translation>
    </message>
    <message>
        <source>Winning so far: %1 · points in this trick: %2</source>
        <translation>目前最大：%1 · 本墩分数：%2</translation>
    </message>
    <message>
        <source>Last trick: %1</source>
        <translation>最后一墩：%1</translation>
    </message>
    <message>
        <source>Trick by trick</source>
        <translation>逐墩录入</translation>
    </message>
    <message>
        <source>&amp;Plays</source>
        <translation>出牌(&amp;P)</translation>
    </message>
    <message>
        <source>e.g. SK SA H4 S5 — a pair: S5S5 S6S6 H4H4 S9S9</source>
        <translation>如 SK SA H4 S5；对子：S5S5 S6S6 H4H4 S9S9</translation>
    </message>
    <message>
        <source>Four plays in play order, separated by spaces; the cards of one play written together; ! before a play marks a discard (8.2).</source>
        <translation>按出牌顺序输入四家出的牌，用空格分隔；同一家的牌连写；在某家前加 ! 表示垫牌（8.2）。</translation>
    </message>
    <message>
        <source>discard (8.2)</source>
        <translation>垫牌 (8.2)</translation>
    </message>
    <message>
        <source>Last trick of the hand (Ctrl+L)</source>
        <translation>本盘最后一墩（Ctrl+L）</translation>
    </message>
    <message>
        <source>Card picker (adds a play, or a card to the play clicked)</source>
        <translation>选牌（添加一家的出牌，或向所点的一家添牌）</translation>
    </message>
</context>
<context>
    <name>ViolationDialog</name>
    <message>
        <source>%1: write what happened.</source>
        <extracomment>Field rows of the form, by name → (label widget name, field widget name).</extracomment>
        <translation>%1：请填写。</translation>
    </message>
    <message>
        <source>No change to points or levels.</source>
        <translation>分数和级数不变。</translation>
    </message>
    <message>
        <source>Violation</source>
        <translation>违规</translation>
    </message>
    <message>
        <source>Offending seat</source>
        <translation>违规座位</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>方</translation>
    </message>
    <message>
        <source>Cards</source>
        <translation>牌</translation>
    </message>
    <message>
        <source>Cards shown</source>
        <translation>亮出的牌</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>Seconds the play took</source>
        <translation>本次出牌用时（秒）</translation>
    </message>
    <message>
        <source>Cards seen by the opponents</source>
        <translation>被对方看清的牌张数</translation>
    </message>
    <message>
        <source>Choice of the non-offending side</source>
        <translation>非违规方的选择</translation>
    </message>
    <message>
        <source>Defenders&apos; points as they stand</source>
        <translation>防守方当前得分</translation>
    </message>
    <message>
        <source>Trump named by the non-offending side</source>
        <translation>非违规方指定的主牌</translation>
    </message>
    <message>
        <source>Level change N–S</source>
        <translation>南北级数调整</translation>
    </message>
    <message>
        <source>Level change E–W</source>
        <translation>东西级数调整</translation>
    </message>
    <message>
        <source>Ruling / details</source>
        <translation>裁决 / 说明</translation>
    </message>
</context>
<context>
    <name>WrongDealerDialog</name>
    <message>
        <source>Wrong dealer</source>
        <translation>坐庄顺序错误</translation>
    </message>
    <message>
        <source>The wrong player dealt: the hand is replayed, the dealer is decided again by bidding race and rotation restarts from that dealer. Levels do not change.</source>
        <translation>坐庄顺序错误：本盘重打，重新抢庄确定庄家，并从该庄家起重新轮换。级数不变。</translation>
    </message>
    <message>
        <source>Seat that dealt</source>
        <translation>错误坐庄的座位</translation>
    </message>
    <message>
        <source>8.5: %1 dealt this hand, not %2</source>
        <translation>8.5：本盘实际由%1发牌，而非%2</translation>
    </message>
</context>
<context>
    <name>WrongPlayDialog</name>
    <message>
        <source>Wrong play</source>
        <translation>出错牌</translation>
    </message>
    <message>
        <source>Each card played in error that the opponents clearly saw costs points: a defender&apos;s error is taken from the defenders&apos; points, a declarer&apos;s is added to them. The cards played in their place are discards and cannot win.</source>
        <translation>出错的牌被对方看清的，每张罚分：防守方出错从防守方得分中扣除，庄家方出错加给防守方。替换打出的牌作垫牌，不能赢墩。</translation>
    </message>
</context>
</TS>
