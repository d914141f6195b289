"""CSV export (games.csv, hands.csv) and import (hands.csv, JSON game records).

Export streams: three ordered queries (games, seats, hands, plus the hands' HandStat rows) are
read side by side with `.iterator(chunk_size=...)`, so memory stays flat whatever the size.
Cells are neutralised against CSV injection; the file starts with a UTF-8 BOM so spreadsheet
programs read å, ö, č, ř right. `docs/csv.md` lists every column.

Import reads a file game by game (`FileReader`: a hands.csv decoded as it is read, JSON records
one at a time), every game through the rules engine, and reports every bad row (line and
reason). `import_bytes` (the import_games command) checks the whole file before writing the lot in
one transaction with `league.services.store_games`; an upload's task writes checked games in
hidden chunks as it reads (league/imports.py).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from clubs.models import Season
from core import strict_input
from core.spreadsheet import neutralise, unneutralise
from league.services import NewGame, repeated_player, store_games
from scoring.engine_messages import engine_line
from scoring.labels import SEAT_NAMES, side_short
from scoring.models import Game, GameSeat, Hand, HandStat
from scoring.rules import RecordError, check_record
from scoring.rules.tables import MAX_NAME_LENGTH
from scoring.stats import seat_meld_points

T = TypeVar("T")


def max_import_bytes() -> int:
    """The largest file an import takes (setting IMPORT_MAX_MB; docs/settings.md, "Imports")."""
    return int(settings.IMPORT_MAX_MB) * 1024 * 1024


CHUNK = 2000
SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW", "N", "E", "S")
CHIP_SIDES = ("NS", "EW")

GAME_SETTING_COLUMNS = [
    "game_id", "date", "club", "season", "place", "note",
    "variant", "deck", "seats", "target", "min_bid", "first_dealer", "meld_needs_trick", "deals",
    *(f"player_{seat}" for seat in SEATS),
]  # fmt: skip
GAMES_COLUMNS = [
    *GAME_SETTING_COLUMNS,
    "hands", "finished",
    *(f"points_{side}" for side in SIDES),
    *(f"chips_{side}" for side in CHIP_SIDES),
    "winner",
]  # fmt: skip
HANDS_COLUMNS = [
    *GAME_SETTING_COLUMNS,
    "hand", "dealer", "bidder", "bid", "trump", "passed", "conceded", "result",
    *(f"melds_{seat}" for seat in SEATS),
    *(f"meld_{seat}" for seat in SEATS),
    *(f"meld_points_{side}" for side in SIDES),
    *(f"tricks_{side}" for side in SIDES),
    *(f"tricks_won_{side}" for side in SIDES),
    *(f"points_{side}" for side in SIDES),
    *(f"total_{side}" for side in SIDES),
    *(f"chips_{side}" for side in CHIP_SIDES),
    *(f"chip_total_{side}" for side in CHIP_SIDES),
]  # fmt: skip

# Localized column names for a person reading the export in a spreadsheet (`?headers=local`).
# The stable English names above stay the default: the import reads only those.
_COLUMN_WORDS = {
    "game_id": pgettext_lazy("CSV column", "Game"),
    "date": pgettext_lazy("CSV column", "Date"),
    "club": pgettext_lazy("CSV column", "Club"),
    "season": pgettext_lazy("CSV column", "Season"),
    "place": pgettext_lazy("CSV column", "Place"),
    "note": pgettext_lazy("CSV column", "Note"),
    "variant": pgettext_lazy("CSV column", "Variant"),
    "deck": pgettext_lazy("CSV column", "Deck"),
    "seats": pgettext_lazy("CSV column", "Seats"),
    "target": pgettext_lazy("CSV column", "Target"),
    "min_bid": pgettext_lazy("CSV column", "Minimum bid"),
    "first_dealer": pgettext_lazy("CSV column", "First dealer"),
    "meld_needs_trick": pgettext_lazy("CSV column", "Meld needs a trick"),
    "deals": pgettext_lazy("CSV column", "Game length (deals)"),
    "hands": pgettext_lazy("CSV column", "Hands"),
    "finished": pgettext_lazy("CSV column", "Finished"),
    "winner": pgettext_lazy("CSV column", "Winner"),
    "hand": pgettext_lazy("CSV column", "Hand"),
    "dealer": pgettext_lazy("CSV column", "Dealer"),
    "bidder": pgettext_lazy("CSV column", "Bidder"),
    "bid": pgettext_lazy("CSV column", "Bid"),
    "trump": pgettext_lazy("CSV column", "Trump"),
    "passed": pgettext_lazy("CSV column", "All passed"),
    "conceded": pgettext_lazy("CSV column", "Conceded"),
    "result": pgettext_lazy("CSV column", "Result"),
}
# Longest prefix first: "meld_points_NS" is not "meld_" + "points_NS".
_COLUMN_PREFIXES = {
    "meld_points_": pgettext_lazy("CSV column", "Meld points"),
    "tricks_won_": pgettext_lazy("CSV column", "Tricks won"),
    "chip_total_": pgettext_lazy("CSV column", "Chip total"),
    "player_": pgettext_lazy("CSV column", "Player"),
    "melds_": pgettext_lazy("CSV column", "Melds shown"),
    "meld_": pgettext_lazy("CSV column", "Meld"),
    "tricks_": pgettext_lazy("CSV column", "Trick points"),
    "points_": pgettext_lazy("CSV column", "Points"),
    "total_": pgettext_lazy("CSV column", "Total"),
    "chips_": pgettext_lazy("CSV column", "Chips"),
}


def local_header(columns: Sequence[str]) -> list[str]:
    """The column names in the active language: "Body N–S", "Hráč Sever" ("points_NS", "player_N")."""
    out = []
    for column in columns:
        if column in _COLUMN_WORDS:
            out.append(str(_COLUMN_WORDS[column]))
            continue
        for prefix, word in _COLUMN_PREFIXES.items():
            if column.startswith(prefix):
                where = column[len(prefix) :]
                place = str(SEAT_NAMES[where]) if where in SEAT_NAMES else side_short(where)
                out.append(f"{word} {place}")
                break
        else:  # pragma: no cover - every column is named above (tested)
            out.append(column)
    return out


# --- export ------------------------------------------------------------------------------------

_GAME_FIELDS = (
    "id", "code", "played_on", "club__name", "season__name", "place", "note", "variant", "deck", "seats",
    "target", "min_bid", "first_dealer", "meld_needs_trick", "deals", "hand_count", "finished", "scores",
    "chip_totals", "winner",
)  # fmt: skip


def _settings_cells(game: dict[str, Any], names: dict[str, str]) -> list[object]:
    return [neutralise(cell) for cell in _raw_settings_cells(game, names)]


def _raw_settings_cells(game: dict[str, Any], names: dict[str, str]) -> list[object]:
    return [
        game["code"], game["played_on"].isoformat() if game["played_on"] else "", game["club__name"] or "",
        game["season__name"] or "", game["place"], game["note"], game["variant"], game["deck"], game["seats"],
        game["target"], game["min_bid"], game["first_dealer"], game["meld_needs_trick"], game["deals"],
        *(names.get(seat, "") for seat in SEATS),
    ]  # fmt: skip


def _games_and_names(games: QuerySet[Game]) -> Iterator[tuple[dict[str, Any], dict[str, str]]]:
    """Each game (as a dict) with its names by seat, from two side-by-side ordered queries."""
    ids = games.values("id")
    game_rows = Game.objects.filter(id__in=ids).order_by("id").values(*_GAME_FIELDS).iterator(CHUNK)
    seat_rows = (
        GameSeat.objects.filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "name", "player__name")
        .iterator(CHUNK)
    )
    seats_by_game = groupby(seat_rows, key=lambda row: row[0])
    pending = next(seats_by_game, None)
    for game in game_rows:
        names: dict[str, str] = {}
        while pending is not None and pending[0] <= game["id"]:
            if pending[0] == game["id"]:
                names = {seat: player or name for _gid, seat, name, player in pending[1]}
            pending = next(seats_by_game, None)
        yield game, names


def games_rows(games: QuerySet[Game]) -> Iterator[list[object]]:
    for game, names in _games_and_names(games):
        scores = game["scores"] or {}
        # As in hands.csv: a Check game with a double deck is played as standard, without chips.
        chips = (game["chip_totals"] or {}) if _chips_in_play(game["variant"], game["deck"]) else {}
        yield [
            *_settings_cells(game, names),
            game["hand_count"],
            neutralise(game["finished"]),
            *(scores.get(side, "") for side in SIDES),
            *(chips.get(side, "") for side in CHIP_SIDES),
            neutralise(game["winner"]),
        ]


def _chips_in_play(variant: str, deck: str) -> bool:
    """Check Pinochle with a single deck: with a double deck it falls back to standard
    (docs/rules.md, "Check Pinochle with a double deck")."""
    return variant == "check" and deck == "single"


# Per side, the HandStat columns a hands.csv row needs. A hand and its sides are one row of one
# query: seat N's row holds side NS (or N), E's holds EW (or E); S is its own side only at a 3-seat
# table, and the join skips the lookup elsewhere (5x faster than joining all four seats on a big
# season). Seat meld points come from the hand's meld items, as `stats` computes them.
_SIDE_STAT = ("meld", "tricks", "points", "chips", "total", "chip_total")
_MELD, _TRICKS, _POINTS, _CHIPS, _TOTAL, _CHIP_TOTAL = range(len(_SIDE_STAT))


def _hands_query(games: QuerySet[Game]) -> tuple[str, tuple[Any, ...]]:
    ids_sql, params = games.values("id").query.sql_with_params()
    hand, stat, game = Hand._meta.db_table, HandStat._meta.db_table, Game._meta.db_table
    columns = ["h.game_id", "h.number", "h.data", "n.dealer", "n.result"]
    joins = [f"JOIN {game} g ON g.id = h.game_id"]
    for seat, only_if in (("N", ""), ("E", ""), ("S", "g.seats = 3 AND ")):
        alias = seat.lower()
        columns += [f"{alias}.{name}" for name in _SIDE_STAT]
        joins.append(
            f"LEFT JOIN {stat} {alias} ON {only_if}{alias}.game_id = h.game_id AND {alias}.number = h.number "
            f"AND {alias}.seat = '{seat}'"
        )
    sql = (
        f"SELECT {', '.join(columns)} FROM {hand} h {' '.join(joins)} "
        f"WHERE h.game_id IN ({ids_sql}) ORDER BY h.game_id, h.number"
    )
    return sql, params


def _hand_records(games: QuerySet[Game]) -> Iterator[tuple[Any, ...]]:
    try:
        sql, params = _hands_query(games)
    except EmptyResultSet:  # the filter can match no game (a visitor who may read none): no rows
        return
    # chunked_cursor: a server-side cursor on PostgreSQL, so memory stays flat there too.
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(CHUNK):
            yield from rows


def hands_rows(games: QuerySet[Game]) -> Iterator[list[object]]:
    hands = groupby(_hand_records(games), key=lambda row: row[0])
    pending = next(hands, None)
    for game, names in _games_and_names(games):
        while pending is not None and pending[0] < game["id"]:
            pending = next(hands, None)
        if pending is None or pending[0] != game["id"]:
            continue  # a game with no hands has no rows here
        settings_cells = _settings_cells(game, names)
        chips_in_play = _chips_in_play(game["variant"], game["deck"])
        for row in pending[1]:
            yield settings_cells + _hand_cells(row, game["seats"], game["deck"], chips_in_play)
        pending = next(hands, None)


_WIDTH = len(_SIDE_STAT)
_BLANK2 = ("", "")
_BLANK3 = ("", "", "")
_BLANK5 = ("", "", "", "", "")
_SIDE_ROW_OF_SEAT = {4: (0, 1, 0, 1), 3: (0, 1, 2, None), 2: (0, 1, None, None)}
# A seat's meld items (as the cell text) -> points, per deck; a few hundred combinations occur.
_MELD_CACHE: dict[str, dict[str, int]] = {"single": {}, "double": {}}


def _meld_cell(items: list[str] | None, deck: str) -> tuple[str, int]:
    """A seat's meld items as cell text, and their points (hot path: one call per seat and hand)."""
    if not items:
        return "", 0
    text = " ".join(items)
    cache = _MELD_CACHE[deck]
    points = cache.get(text)
    if points is None:
        if len(cache) > 10_000:  # only hand-edited data could get here; stay bounded
            cache.clear()
        points = cache[text] = seat_meld_points(items, deck)
    text = str(neutralise(text))  # engine-checked meld names need none; a hand-edited row might
    return text, points


def _hand_cells(row: tuple[Any, ...], seats: int, deck: str, chips_in_play: bool) -> list[object]:
    """The hand's columns of hands.csv. The export's inner loop: kept flat on purpose."""
    data = row[2]
    if data.__class__ is str:
        data = json.loads(data)
    get = data.get
    result = row[4]
    n, e = row[5 : 5 + _WIDTH], row[5 + _WIDTH : 5 + 2 * _WIDTH]
    melds = get("melds")
    meld_points = get("meld_points")
    tricks_won = get("tricks_won")
    # Stored hand data was checked by the engine (seat letters, suits, meld names, integers); the
    # text cells are neutralised all the same, in case a row was edited by hand in the admin.
    cells: list[object] = [
        row[1],
        row[3],
        neutralise(get("bidder")),
        neutralise(get("bid")),
        neutralise(get("trump")),
        "1" if get("passed") else "",
        "1" if get("conceded") else "",
        result,
    ]
    if seats == 4:
        if melds is not None:
            mn, pn = _meld_cell(melds.get("N"), deck)
            me, pe = _meld_cell(melds.get("E"), deck)
            ms, ps = _meld_cell(melds.get("S"), deck)
            mw, pw = _meld_cell(melds.get("W"), deck)
            cells += (mn, me, ms, mw, pn, pe, ps, pw)
        elif meld_points is not None:
            cells += ("", "", "", "", "", "", "", "")  # a side's plain meld number is not split
        else:
            cells += ("", "", "", "", n[_MELD], e[_MELD], n[_MELD], e[_MELD])
    else:
        side_rows = (n, e, row[5 + 2 * _WIDTH : 5 + 3 * _WIDTH])
        texts: list[object] = []
        points: list[object] = []
        for seat, side_row in zip(SEATS, _SIDE_ROW_OF_SEAT[seats], strict=True):
            text, meld = _meld_cell(melds.get(seat) if melds else None, deck)
            texts.append(text)
            if side_row is None:
                points.append("")
            else:
                points.append(meld if melds is not None else side_rows[side_row][_MELD])
        cells += texts
        cells += points
    cells += [neutralise(meld_points.get(side)) for side in SIDES] if meld_points else _BLANK5
    played = result != "passed" and result != "conceded"
    if seats == 4:
        cells += (n[_TRICKS], e[_TRICKS], "", "", "") if played else _BLANK5
        cells += [neutralise(tricks_won.get(side)) for side in SIDES] if tricks_won else _BLANK5
        cells += (n[_POINTS], e[_POINTS], "", "", "", n[_TOTAL], e[_TOTAL], "", "", "")
        if chips_in_play:
            cells += (n[_CHIPS], e[_CHIPS], n[_CHIP_TOTAL], e[_CHIP_TOTAL])
        else:
            cells += ("", "", "", "")
        return cells
    s = row[5 + 2 * _WIDTH : 5 + 3 * _WIDTH]
    third = seats == 3
    cells += ("", "", n[_TRICKS], e[_TRICKS], s[_TRICKS] if third else "") if played else _BLANK5
    cells += [neutralise(tricks_won.get(side)) for side in SIDES] if tricks_won else _BLANK5
    cells += ("", "", n[_POINTS], e[_POINTS], s[_POINTS] if third else "")
    cells += ("", "", n[_TOTAL], e[_TOTAL], s[_TOTAL] if third else "")
    cells += ("", "", "", "")  # no chips away from a 4-seat Check Pinochle table
    return cells


# --- import --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    line: int | None
    message: str

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return _("line %(line)s: %(message)s") % {"line": self.line, "message": self.message}


@dataclass(frozen=True)
class Place:
    """Where games of a file go: the club and season a hands.csv row names (or the upload form
    gives JSON records), and the line that first names them."""

    club: str
    season: str
    line: int | None = None


#: The most problems one file's reading keeps (the batch's page lists at most these): a file of
#: millions of bad rows is refused the same without a Problem held for every row.
MAX_PROBLEMS = 1000


class FirstOnes(list[T]):
    """A list that keeps the first `MAX_PROBLEMS` items appended to it: the problems found in a
    file, the engine's errors of one game's hands."""

    def append(self, item: T) -> None:
        if len(self) < MAX_PROBLEMS:
            super().append(item)

    def extend(self, items: Iterable[T]) -> None:
        for item in items:
            self.append(item)


# The uploader's rights over the places a file names: the problems, or [] when they may import.
PlaceCheck = Callable[[Sequence[Place]], list[Problem]]


class ImportRefused(Exception):
    """The file was refused whole; `problems` says where and why, one per bad row."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems[:5]))
        self.problems = list(problems)


def another_import() -> Problem:
    """A game code was taken by another import between the check and the write."""
    return Problem(None, _("another import wrote some of these games just now; try again"))


@dataclass(frozen=True)
class ImportReport:
    games: int
    hands: int


def decode(raw: bytes, name: str = "file") -> str:
    if len(raw) > max_import_bytes():
        raise ImportRefused(
            [
                Problem(
                    None,
                    _("%(name)s is larger than %(size)s MB") % {"name": name, "size": settings.IMPORT_MAX_MB},
                )
            ]
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ImportRefused(
            [
                Problem(
                    line,
                    _("%(name)s is not UTF-8 text; save it as “CSV UTF-8” and try again") % {"name": name},
                )
            ]
        ) from None


def check_bytes(
    raw: bytes,
    *,
    name: str = "file",
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    check: PlaceCheck | None = None,
) -> list[NewGame]:
    """Read and check one file (hands.csv, or JSON game records) whole, writing nothing and taking
    no write lock: the user's rights (`check`), every game through the engine, codes already here,
    seasons' dates. ImportRefused lists every problem found. (The upload page's import does the
    same game by game, writing as it goes: league/imports.py.)"""
    reader = FileReader(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    reader.count()
    games = list(reader.games())
    if reader.problems:
        raise ImportRefused(reader.sorted_problems())
    if problems := place_problems(games):
        raise ImportRefused(problems)
    return games


def parse_hands_csv(text: str, *, check: PlaceCheck | None = None) -> list[NewGame]:
    """The checked games of a hands.csv, without the database's checks (codes, seasons' dates)."""
    reader = FileReader(text.encode(), name="hands.csv", check=check)
    reader.count()
    games = list(reader.games())
    if reader.problems:
        raise ImportRefused(reader.sorted_problems())
    return games


class FileReader:
    """One file (hands.csv, or JSON game records) read game by game in two passes, so that a large
    file is never held whole as rows, records or scored games: at most its bytes (a hands.csv is
    decoded as it is read) and, for JSON, its text.

    `count()` reads it through without scoring anything: its size and encoding, its kind, the
    user's rights over every club and season it names (`check`, asked when a row first names one:
    a refused file stops there, before any game is scored) and JSON's syntax; it returns the number
    of games, or raises ImportRefused. `games()` then reads it again and yields each game the rules
    engine accepts; what is wrong with the others (every bad row, at its line) gathers in
    `problems`. A hands.csv whose games' rows are not each together (edited by hand) is grouped
    in memory first, as a whole."""

    def __init__(
        self,
        raw: bytes,
        *,
        name: str = "file",
        club: str = "",
        season: str = "",
        played_on: datetime.date | None = None,
        check: PlaceCheck | None = None,
    ) -> None:
        self.raw = raw
        self.name = name
        self.club, self.season, self.played_on = club, season, played_on
        self.check = check
        self.problems: list[Problem] = FirstOnes[Problem]()
        self.total = 0
        self._text: str | None = None  # JSON's text; a hands.csv is read from the bytes
        self._places: set[tuple[str, str]] = set()  # the places whose rights were checked
        self._grouped = True  # each game's rows together, as exported

    def count(self) -> int:
        text = decode(self.raw, self.name)
        if text.lstrip()[:1] in ("{", "["):
            if self.check is not None and (problems := self.check([Place(self.club, self.season)])):
                raise ImportRefused(problems)
            try:
                self.total = sum(1 for _record in strict_input.iter_loads(text))
            except strict_input.JsonRefused as error:
                raise ImportRefused([Problem(error.line, error.message)]) from None
            self._text = text
            return self.total
        del text  # a hands.csv is read from the bytes again, row by row
        seen: set[str] = set()
        current = None
        for _line, game_id, _row in self._rows(FirstOnes[Problem]()):
            if game_id != current:
                self._grouped = self._grouped and game_id not in seen
                seen.add(game_id)
                current = game_id
        self.total = len(seen)
        return self.total

    def games(self) -> Iterator[NewGame]:
        if self._text is not None:
            yield from self._json_games(self._text)
        else:
            yield from self._csv_games()

    def sorted_problems(self) -> list[Problem]:
        return sorted(self.problems, key=lambda p: p.line or 0)

    def _json_games(self, text: str) -> Iterator[NewGame]:
        found = False
        for index, record in enumerate(strict_input.iter_loads(text), start=1):
            where: list[Problem] = []
            game = None
            if not isinstance(record, dict) or not isinstance(record.get("hands"), list):
                where.append(
                    Problem(None, _("not a game record: an object with a list of hands is expected"))
                )
            else:
                result = _score(record, [], where)
                if result is not None and self.club and (problem := repeated_player(result.settings.players)):
                    where.append(Problem(None, problem))
                elif result is not None:
                    game = NewGame.of_record(
                        record, result, club=self.club, season=self.season, played_on=self.played_on
                    )
            prefix = _("record %(index)s: ") % {"index": index} if self.total > 1 else ""
            self.problems.extend(
                Problem(None, prefix + p.message if p.line is None else prefix + str(p)) for p in where
            )
            if game is not None:
                found = True
                yield game
        if not found and not self.problems:
            self.problems.append(Problem(None, _("the file holds no game records")))

    def _csv_games(self) -> Iterator[NewGame]:
        rows = self._rows(self.problems)
        groups: Iterable[tuple[str, list[tuple[int, dict[str, str]]]]]
        if self._grouped:
            groups = (
                (game_id, [(line, row) for line, _id, row in group])
                for game_id, group in groupby(rows, key=lambda each: each[1])
            )
        else:
            by_game: dict[str, list[tuple[int, dict[str, str]]]] = {}
            for line, game_id, row in rows:
                by_game.setdefault(game_id, []).append((line, row))
            groups = by_game.items()
        found = False
        for game_id, group in groups:
            found = True
            game = _read_game(game_id, group, self.problems)
            if game is not None:
                yield game
        if not found and not self.problems:
            self.problems.append(Problem(None, _("the file holds no hands")))

    def _rows(self, problems: list[Problem]) -> Iterator[tuple[int, str, dict[str, str]]]:
        """(line, game_id, row) for each row of a hands.csv; a bad row goes to `problems`."""
        stream = io.TextIOWrapper(io.BytesIO(self.raw), encoding="utf-8-sig", newline="")
        reader = csv.reader(stream, strict=True)
        try:
            header = [cell.strip() for cell in next(reader, [])]
        except csv.Error as error:
            raise ImportRefused(
                [Problem(1, _("not a readable CSV file: %(error)s") % {"error": error})]
            ) from None
        missing = [column for column in _REQUIRED if column not in header]
        if missing:
            raise ImportRefused(
                [
                    Problem(
                        1,
                        _("not a hands.csv: the header lacks %(columns)s (see docs/csv.md)")
                        % {"columns": ", ".join(missing)},
                    )
                ]
            )
        has_nul = b"\x00" in self.raw
        try:
            for cells in reader:
                line = reader.line_num
                if not any(cell.strip() for cell in cells):
                    continue
                if len(cells) > len(header):
                    problems.append(
                        Problem(
                            line,
                            _("%(cells)s cells, but the header has %(columns)s columns")
                            % {"cells": len(cells), "columns": len(header)},
                        )
                    )
                    continue
                # Decoded UTF-8 holds no lone surrogate; cells are searched for NUL if the file has one.
                bad = (
                    next((i for i, cell in enumerate(cells) if strict_input.text_problem(cell)), None)
                    if has_nul
                    else None
                )
                if bad is not None:
                    column = header[bad] if bad < len(header) else str(bad + 1)
                    problems.append(
                        Problem(
                            line,
                            _("%(where)s: %(problem)s")
                            % {"where": column, "problem": strict_input.text_problem(cells[bad])},
                        )
                    )
                    continue
                row = {key: unneutralise(value) for key, value in zip(header, cells, strict=False)}
                game_id = row.get("game_id", "").strip()
                if not game_id:
                    problems.append(Problem(line, _("game_id is empty")))
                    continue
                place = (row.get("club", "").strip(), row.get("season", "").strip())
                if self.check is not None and place not in self._places:
                    self._places.add(place)
                    if refused := self.check([Place(*place, line=line)]):
                        raise ImportRefused(refused)
                yield line, game_id, row
        except csv.Error as error:
            problems.append(Problem(reader.line_num, _("broken CSV: %(error)s") % {"error": error}))


def first_places(raw: bytes, *, club: str = "", season: str = "", size: int = 64 * 1024) -> list[Place]:
    """The clubs and seasons the start of a file names, read from its first `size` bytes without
    reading the rest: JSON records go where the form says; a hands.csv's first rows name theirs.
    The upload page checks the user's rights over these before it keeps the file."""
    head = raw[:size].decode("utf-8-sig", errors="ignore")
    if head.lstrip()[:1] in ("{", "["):
        return [Place(club, season)]
    if len(raw) > size:
        head = head[: head.rfind("\n") + 1]  # whole lines only
    places: dict[tuple[str, str], Place] = {}
    try:
        reader = csv.DictReader(io.StringIO(head, newline=""), strict=True)
        for row in reader:
            key = (str(row.get("club") or "").strip(), str(row.get("season") or "").strip())
            if "\x00" in key[0] + key[1]:
                continue  # no club or season holds a NUL: the worker's full read refuses the line
            if row.get("game_id") and key not in places:
                places[key] = Place(*key, line=reader.line_num)
    except csv.Error:
        pass  # a row cut off at the end of the head, or a broken file: `count` says what is wrong
    return list(places.values())


def import_bytes(
    raw: bytes,
    *,
    name: str = "file",
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    check: PlaceCheck | None = None,
) -> ImportReport:
    """Import one file in one transaction, all or nothing (the import_games command; the upload
    page writes in short transactions instead, league/imports.py).

    `check` (the importing user's rights) sees every club and season the file names before its
    games are scored; any problem it returns refuses the whole file."""
    games = check_bytes(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    try:
        with transaction.atomic():
            store_games(games=games)
    except IntegrityError:
        # Another import wrote a game with one of these codes between the check and the write.
        raise ImportRefused([another_import()]) from None
    return ImportReport(games=len(games), hands=sum(len(g.hands) for g in games))


def place_problems(games: Sequence[NewGame]) -> list[Problem]:
    """League checks against the database: unknown codes, seasons' date ranges."""
    problems = []
    codes = [g.code for g in games if g.code]
    taken = set(Game.all_objects.filter(code__in=codes).values_list("code", flat=True))
    seasons: dict[tuple[str, str], Season | None] = {}
    for game in games:
        if game.code in taken:
            problems.append(
                Problem(
                    game.line,
                    _("game %(code)s is already here; was this file imported before?") % {"code": game.code},
                )
            )
        if game.season and not game.club:
            problems.append(Problem(game.line, _("season: a season needs its club")))
        if game.season and game.club and game.played_on:
            key = (game.club, game.season)
            if key not in seasons:
                seasons[key] = Season.objects.filter(club__name=game.club, name=game.season).first()
            season = seasons[key]
            if season and not season.starts_on <= game.played_on <= season.ends_on:
                problems.append(
                    Problem(
                        game.line,
                        _("date: %(date)s is outside season %(season)s (%(start)s – %(end)s)")
                        % {
                            "date": game.played_on,
                            "season": game.season,
                            "start": season.starts_on,
                            "end": season.ends_on,
                        },
                    )
                )
    return problems


def _score(record: dict[str, Any], lines: Sequence[int | None], problems: list[Problem]) -> Any:
    """Check a record with the engine; every bad hand is reported at its line. None if refused."""
    # Kept bounded: each error holds its traceback, and a record of a million bad hands (a few
    # bytes each) would otherwise cost the worker hundreds of times the file.
    hand_errors: list[RecordError] = FirstOnes[RecordError]()
    try:
        return check_record(record, hand_errors=hand_errors)
    except RecordError as error:
        for each in hand_errors or [error]:
            line = lines[(each.hand or 1) - 1] if lines else None
            problems.append(Problem(line, engine_line(each)))
        return None


# hands.csv -----------------------------------------------------------------------------------------

_REQUIRED = ["game_id", "seats", "variant", "deck", "hand", "bidder", "bid", "trump"]


class _RowError(Exception):
    pass


def _int(row: dict[str, str], key: str) -> int | None:
    value = row.get(key, "").strip()
    if not value:
        return None
    # A minus sign is read (the engine then names the field's range); `25_0`, `+5` and `٣` are not.
    number = strict_input.whole_number(value, negative=True)
    if number is None:
        raise _RowError(
            _("%(key)s: %(value)s is not a whole number") % {"key": key, "value": repr(value[:20])}
        )
    return number


def _flag(row: dict[str, str], key: str) -> bool:
    value = row.get(key, "").strip().casefold()
    if value in ("", "0", "false", "no"):
        return False
    if value in ("1", "true", "yes"):
        return True
    raise _RowError(_("%(key)s: %(value)s is not 1 or 0") % {"key": key, "value": repr(value[:20])})


def _settings_of(row: dict[str, str]) -> dict[str, Any]:
    return {
        "seats": _int(row, "seats"),
        "variant": row.get("variant", "").strip() or None,
        "deck": row.get("deck", "").strip() or None,
        "target": _int(row, "target"),
        "min_bid": _int(row, "min_bid"),
        "first_dealer": row.get("first_dealer", "").strip() or None,
        "options": {"meld_needs_trick": _flag(row, "meld_needs_trick"), "deals": _int(row, "deals")},
    }


def _league_of(row: dict[str, str]) -> tuple[dict[str, str], datetime.date | None, dict[str, str]]:
    date_text = row.get("date", "").strip()
    try:
        played_on = datetime.date.fromisoformat(date_text) if date_text else None
    except ValueError:
        raise _RowError(
            _("date: %(value)s is not a date like 2026-03-14") % {"value": repr(date_text[:20])}
        ) from None
    texts = {key: row.get(key, "").strip() for key in ("club", "season", "place", "note")}
    for key in ("club", "season", "place"):
        if len(texts[key]) > 100:
            raise _RowError(_("%(key)s is longer than 100 characters") % {"key": key})
    players = {seat: row.get(f"player_{seat}", "").strip() for seat in SEATS}
    for seat, name in players.items():
        if len(name) > MAX_NAME_LENGTH:
            raise _RowError(
                _("player_%(seat)s is longer than %(max)s characters")
                % {"seat": seat, "max": MAX_NAME_LENGTH}
            )
    return texts, played_on, {seat: name for seat, name in players.items() if name}


def _hand_of(row: dict[str, str]) -> dict[str, Any]:
    if _flag(row, "passed"):
        return {"passed": True}
    hand: dict[str, Any] = {}
    bidder = row.get("bidder", "").strip()
    if bidder:
        hand["bidder"] = bidder
    bid = _int(row, "bid")
    if bid is not None:
        hand["bid"] = bid
    trump = row.get("trump", "").strip()
    if trump:
        hand["trump"] = trump
    meld_points = {side: _int(row, f"meld_points_{side}") for side in SIDES}
    melds = {seat: row.get(f"melds_{seat}", "").split() for seat in SEATS}
    if any(value is not None for value in meld_points.values()):
        hand["meld_points"] = {side: value for side, value in meld_points.items() if value is not None}
    elif any(melds.values()):
        hand["melds"] = {seat: items for seat, items in melds.items() if items}
    if _flag(row, "conceded"):
        hand["conceded"] = True
        return hand
    tricks = {side: _int(row, f"tricks_{side}") for side in SIDES}
    hand["tricks"] = {side: value for side, value in tricks.items() if value is not None}
    won = {side: _int(row, f"tricks_won_{side}") for side in SIDES}
    if any(value is not None for value in won.values()):
        hand["tricks_won"] = {side: value for side, value in won.items() if value is not None}
    return hand


def _read_game(
    game_id: str, rows: list[tuple[int, dict[str, str]]], problems: list[Problem]
) -> NewGame | None:
    first_line, first = rows[0]
    try:
        settings = _settings_of(first)
        league, played_on, players = _league_of(first)
    except _RowError as error:
        problems.append(Problem(first_line, str(error)))
        return None
    if not strict_input.is_game_code(game_id):
        problems.append(
            Problem(
                first_line,
                _("game_id: %(value)s is not a game code (1 to 16 letters, digits, - or _)")
                % {"value": repr(game_id[:20])},
            )
        )
        return None
    hands: dict[int, tuple[int, dict[str, Any]]] = {}
    bad = False
    for line, row in rows:
        try:
            if (_settings_of(row), _league_of(row)) != (settings, (league, played_on, players)):
                raise _RowError(
                    _("game %(game)s: its settings, date or players differ from line %(line)s")
                    % {"game": game_id, "line": first_line}
                )
            number = _int(row, "hand")
            if number is None or number < 1:
                raise _RowError(_("hand: the hand number is missing"))
            if number in hands:
                raise _RowError(
                    _("hand %(hand)s of game %(game)s is also on line %(line)s")
                    % {"hand": number, "game": game_id, "line": hands[number][0]}
                )
            hands[number] = (line, _hand_of(row))
        except _RowError as error:
            problems.append(Problem(line, str(error)))
            bad = True
    if bad:
        return None
    numbers = sorted(hands)
    if numbers != list(range(1, len(numbers) + 1)):
        gap = next(n for n in range(1, len(numbers) + 2) if n not in hands)
        problems.append(
            Problem(first_line, _("game %(game)s: hand %(hand)s is missing") % {"game": game_id, "hand": gap})
        )
        return None
    lines = [hands[n][0] for n in numbers]
    hand_data = [hands[n][1] for n in numbers]
    record = {**settings, "players": players, "hands": hand_data}
    result = _score(record, lines, problems)
    if result is None:
        return None
    if league["club"] and (problem := repeated_player(players)):
        problems.append(Problem(first_line, problem))
        return None
    return NewGame(
        settings=settings,
        players=players,
        hands=hand_data,
        result=result,
        code=game_id,
        club=league["club"],
        season=league["season"],
        played_on=played_on,
        place=league["place"],
        note=league["note"],
        line=first_line,
    )
