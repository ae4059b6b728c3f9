"""Printed documents: bracket sheet (xlsx), results, match report and scoresheet (PDF).

See docs/tournament-api.md. No Qt here.
"""
