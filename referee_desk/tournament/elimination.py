"""Single-elimination brackets: building the matches and resolving who plays whom.

Match ids are ``KO-R<round>-M<position>`` (``KO-3P`` for the third-place match);
round 1 pairs the seed positions, later rounds take the winners of two matches.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee_desk.tournament.model import Slot, TournamentMatch
from referee_desk.tournament.seeding import bracket_size, seed_positions

KO_STAGE = "KO"
THIRD_PLACE_ID = "KO-3P"


def ko_match_id(round_no: int, position: int) -> str:
    return f"KO-R{round_no}-M{position:03d}"


def build_elimination(entries: Sequence[Slot], third_place: bool = False) -> list[TournamentMatch]:
    """The matches of a knockout whose entries are given in seed order (entry 0 = seed 1).

    Byes fill the seeds beyond the field, so they meet the top seeds.
    """
    size = bracket_size(len(entries))
    by_seed = {i + 1: slot for i, slot in enumerate(entries)}
    lines = [by_seed.get(s, Slot("bye")) for s in seed_positions(size)]
    matches: list[TournamentMatch] = []
    for k in range(size // 2):
        matches.append(
            TournamentMatch(
                ko_match_id(1, k + 1), KO_STAGE, 1, k + 1, lines[2 * k], lines[2 * k + 1]
            )
        )
    round_no, count = 2, size // 4
    while count >= 1:
        for k in range(count):
            a = Slot("winner", ref=ko_match_id(round_no - 1, 2 * k + 1))
            b = Slot("winner", ref=ko_match_id(round_no - 1, 2 * k + 2))
            matches.append(
                TournamentMatch(ko_match_id(round_no, k + 1), KO_STAGE, round_no, k + 1, a, b)
            )
        round_no += 1
        count //= 2
    final_round = round_no - 1
    if third_place and size >= 4:
        semi = final_round - 1
        matches.append(
            TournamentMatch(
                THIRD_PLACE_ID,
                KO_STAGE,
                final_round,
                2,
                Slot("loser", ref=ko_match_id(semi, 1)),
                Slot("loser", ref=ko_match_id(semi, 2)),
                third_place=True,
            )
        )
    return matches


def round_count(matches: Sequence[TournamentMatch]) -> int:
    return max((m.round for m in matches if m.stage == KO_STAGE), default=0)


def round_label(round_no: int, rounds: int, third_place: bool = False) -> str:
    """决赛 Final, 半决赛 Semifinal, … or 第n轮."""
    if third_place:
        return "三四名决赛 3rd place"
    left = rounds - round_no
    if left == 0:
        return "决赛 Final"
    if left == 1:
        return "半决赛 Semifinal"
    if left == 2:
        return "四分之一决赛 Quarterfinal"
    return f"第{round_no}轮 Round {round_no}"
