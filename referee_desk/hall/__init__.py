"""The hall page: a read-only web app for players and the projector (``hall serve``).

It shows what the tournament layer derives (standings, matches, levels, how each match
was decided, where a player sits next) and computes no rule itself. No Qt here.
"""
