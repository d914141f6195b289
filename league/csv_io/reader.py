"""Reading an uploaded file: decoding it, and checking every row of hands.csv into whole games."""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Season
from core import strict_input
from core.spreadsheet import unneutralise
from league.csv_io.columns import max_import_bytes
from league.csv_io.problems import FirstOnes, ImportRefused, Place, PlaceCheck, Problem
from league.csv_io.rows import REQUIRED_COLUMNS, check_game, read_game
from league.services import NewGame, repeated_player
from scoring.models import Game


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
    same game by game, writing as it goes: league/imports/.)"""
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
                result = check_game(record, [], where)
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
            game = read_game(game_id, group, self.problems)
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
        missing = [column for column in REQUIRED_COLUMNS if column not in header]
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
                            ngettext(
                                "%(cells)s cell, but the header has only %(columns)s",
                                "%(cells)s cells, but the header has only %(columns)s",
                                len(cells),
                            )
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
            refusal = season.refuses(on=game.played_on) if season else None
            if refusal is not None:
                problems.append(Problem(game.line, refusal[1]))
    return problems
