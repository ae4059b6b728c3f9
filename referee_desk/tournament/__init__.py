"""The tournament layer: pairs, the draw, brackets, groups, standings, results from records.

See docs/tournament-api.md. No Qt here.
"""
