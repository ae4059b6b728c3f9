"""Reading a list of pairs from a CSV or xlsx file the organizer keeps.

The first row holds the headers; English or Chinese names are accepted:
``player1``/``选手1``, ``player2``/``选手2``, ``club``/``俱乐部``, ``seed``/``种子``.
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path

from referee_desk.tournament.errors import PairError

HEADERS = {
    "player1": ("player1", "player 1", "选手1", "队员1", "选手一", "队员一"),
    "player2": ("player2", "player 2", "选手2", "队员2", "选手二", "队员二"),
    "club": ("club", "俱乐部", "单位", "队名"),
    "seed": ("seed", "种子", "种子号"),
}

PairRow = tuple[str, str, str, int | None]

#: The longest player or club name accepted (characters); printed documents need it.
MAX_NAME_CHARS = 60

#: The largest pair list read (bytes).
MAX_LIST_BYTES = 10 * 1024 * 1024

#: Seeds are small positive numbers.
MAX_SEED = 10_000


def validate_name(text: str, what: str) -> str:
    """The name, stripped; ``PairError`` for control characters or an over-long name."""
    name = text.strip()
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise PairError(f"{what}: {name[:20]!r}… contains a control character {char!r}")
    if len(name) > MAX_NAME_CHARS:
        raise PairError(
            f"{what}: a name of {len(name):,} characters; at most {MAX_NAME_CHARS} are allowed"
        )
    return name


def _columns(header: list[str], where: str) -> dict[str, int]:
    norm = [str(h or "").strip().lower() for h in header]
    cols: dict[str, int] = {}
    for key, names in HEADERS.items():
        for i, h in enumerate(norm):
            if h in names:
                cols[key] = i
                break
    missing = [k for k in ("player1", "player2") if k not in cols]
    if missing:
        raise PairError(
            f"{where}: the header row needs columns {', '.join(missing)} "
            f"(or 选手1/选手2); found {', '.join(h for h in norm if h) or 'nothing'}"
        )
    return cols


def _rows_to_pairs(rows: list[list[object]], where: str) -> list[PairRow]:
    if not rows:
        raise PairError(f"{where}: the file is empty")
    cols = _columns([str(c) if c is not None else "" for c in rows[0]], where)
    out: list[PairRow] = []
    for line, row in enumerate(rows[1:], start=2):
        cells = [("" if c is None else str(c).strip()) for c in row]
        if not any(cells):
            continue

        def cell(key: str, cells: list[str] = cells) -> str:
            i = cols.get(key)
            return cells[i] if i is not None and i < len(cells) else ""

        at = f"{where}, row {line}"
        p1 = validate_name(cell("player1"), at)
        p2 = validate_name(cell("player2"), at)
        if not p1 or not p2:
            raise PairError(f"{at}: both player names are required")
        seed_text = cell("seed")
        seed: int | None = None
        if seed_text:
            try:
                seed = int(float(seed_text))
            except (ValueError, OverflowError):
                raise PairError(f"{at}: seed {seed_text[:20]!r} is not a number") from None
            if not 1 <= seed <= MAX_SEED:
                raise PairError(f"{at}: seed {seed} is not between 1 and {MAX_SEED}")
        out.append((p1, p2, validate_name(cell("club"), at), seed))
    return out


def read_pairs(path: str | Path) -> list[PairRow]:
    """Pairs listed in a ``.csv`` (UTF-8, BOM allowed) or ``.xlsx`` file (first sheet)."""
    p = Path(path)
    where = str(p)
    if not p.is_file():
        raise PairError(f"{where}: no such file")
    if p.stat().st_size > MAX_LIST_BYTES:
        raise PairError(f"{where}: larger than {MAX_LIST_BYTES // (1024 * 1024)} MB")
    if p.suffix.lower() in (".xlsx", ".xlsm"):
        from openpyxl import load_workbook  # type: ignore[import-untyped]

        try:
            wb = load_workbook(p, read_only=True, data_only=True)
            ws = wb.worksheets[0]
            rows = [list(r) for r in ws.iter_rows(values_only=True)]
            wb.close()
        except Exception as error:  # a damaged workbook: zip, XML or openpyxl errors
            reason = " ".join(str(error).split())[:200]
            raise PairError(
                f"{where}: not a readable xlsx workbook ({type(error).__name__}: {reason})"
            ) from None
        return _rows_to_pairs(rows, where)
    if p.suffix.lower() in (".csv", ".txt"):
        try:
            with open(p, encoding="utf-8-sig", newline="") as handle:
                reader = csv.reader(handle)
                return _rows_to_pairs([list(r) for r in reader], where)
        except csv.Error as error:
            raise PairError(f"{where}, row {reader.line_num}: {error}") from None
        except UnicodeDecodeError as error:
            raise PairError(f"{where}: not UTF-8 text (byte {error.start + 1})") from None
    raise PairError(f"{where}: pairs can be read from .csv or .xlsx files")
