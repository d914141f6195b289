"""The documents stand alone: they point only at files in the repository, and their numbers are the engine's.

No database: the docs are read as files and the worked examples are scored with the rules engine.
"""

import ast
import io
import json
import os
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest

from scoring.rules import tables
from scoring.rules.engine import score_record

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
RECORD_FORMAT = DOCS / "record-format.md"
EXAMPLE = DOCS / "examples" / "record-example.json"

#: Folders that are not the project's own text (tools, caches, generated output).
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "staticfiles",
    "test-output",
    "__pycache__",
    ".hypothesis",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
}
TEXT_SUFFIXES = {".py", ".md", ".html", ".txt", ".po", ".toml", ".cfg", ".sh", ".js", ".css", ".json", ".yml"}

# Built from pieces so that this file does not match its own patterns.
OUTSIDE_FILES = re.compile(
    "|".join(
        [
            r"\bRULES" + r"\.md",
            r"\bRECORD" + r"\.md",
            r"\bRULES" + r" §",
            r"shared" + r"/seeds",
            r"/work" + r"/",
            r"\bSTYLE" + r"\.md",
            r"team's" + r" shared folder",
        ]
    )
)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
BACKTICKED_PATH = re.compile(r"`([\w.-]+(?:/[\w.-]+)+\.(?:md|py|json|html|txt|sh|toml|css|js))`")
SECTION_POINTER = re.compile(r"\b(rules|record-format)\.md, \"([^\"]+)\"")


def project_text_files() -> list[Path]:
    files = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_DIRS]
        for name in names:
            path = Path(folder) / name
            if path.suffix in TEXT_SUFFIXES or name in ("Makefile", "run"):
                files.append(path)
    return files


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def heading_slugs(path: Path) -> set[str]:
    """GitHub's anchors for a markdown file's headings: lower case, punctuation dropped, spaces to '-'."""
    slugs = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            slugs.add(re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-"))
    return slugs


def headings(path: Path) -> set[str]:
    return {
        line.lstrip("#").strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


def test_it_names_no_rule_book_or_record_file_that_the_repository_does_not_contain():
    found = []
    for path in project_text_files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE_FILES.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_architecture_is_told_by_layers_and_apps_not_by_issue_numbers():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    assert re.findall(r"(?i)\bissues?\b.{0,20}", text) == []


def test_code_tests_and_docs_name_behaviour_not_the_issues_that_brought_it():
    cited = re.compile(r"(?i)\bissues? ?#?\d|\btest_issue\d")
    found = []
    for path in project_text_files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if cited.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


CITED_IN_A_COMMENT = re.compile(
    r"(?i)(?<![\w&/])#\d+\b|\b(?:bug|ticket|pr|pull request|gh|point)[ -]?#?\d+\b"
)
NUMBERED_TEST_NAME = re.compile(r"(?i)^test_(?:\w*_)?(?:issue|point|item|bug|ticket|finding|gh|pr)_?\d+")


def test_no_python_comment_or_test_name_cites_a_numbered_issue_point_or_ticket():
    """A comment saying "#12" or "bug 7", or a test named `test_point12_...`, points at a list the
    reader cannot see; the name and the comment say the behaviour instead. (Hand numbers such as
    "#2" in asserted page text are strings, not comments, and are not looked at.)"""
    found = []
    for path in ROOT.rglob("*.py"):
        if {".venv", "migrations", "staticfiles", "test-output"} & set(path.relative_to(ROOT).parts):
            continue
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            comment = token.type == tokenize.COMMENT and CITED_IN_A_COMMENT.search(token.string[1:])
            if comment or (token.type == tokenize.NAME and NUMBERED_TEST_NAME.search(token.string)):
                found.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {token.string}")
    assert found == []


def test_no_docstring_cites_a_numbered_issue_point_or_ticket():
    """A module, class or function docstring is read like a comment: "point" or "bug" and a number
    there points at a list the reader cannot see, so it says the behaviour instead. ("points" and a
    number is a score, not a reference, and is allowed.) This file is skipped: it holds the examples."""
    found = []
    for path in ROOT.rglob("*.py"):
        parts = set(path.relative_to(ROOT).parts)
        if {".venv", "migrations", "staticfiles", "test-output"} & parts or path == Path(__file__).resolve():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            docstring = ast.get_docstring(node, clean=False) or ""
            for cited in CITED_IN_A_COMMENT.finditer(docstring):
                line = getattr(node, "lineno", 1)
                found.append(f"{path.relative_to(ROOT)}:{line}: {cited.group()}")
    assert found == []


def test_it_links_the_readme_and_docs_only_to_files_and_headings_that_exist():
    broken = []
    for doc in documents():
        for target in MARKDOWN_LINK.findall(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            linked = (doc.parent / file_part).resolve() if file_part else doc
            if not linked.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in heading_slugs(linked):
                broken.append(f"{doc.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_it_names_only_paths_that_exist_in_the_readme_and_docs():
    missing = []
    for doc in documents():
        for path in BACKTICKED_PATH.findall(doc.read_text(encoding="utf-8")):
            if not (ROOT / path).exists() and not (doc.parent / path).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {path}")
    assert missing == []


def test_it_points_comments_and_docs_at_sections_the_rule_book_and_record_format_have():
    sections = {"rules": headings(RULES), "record-format": headings(RECORD_FORMAT)}
    missing = []
    for path in project_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, section in SECTION_POINTER.findall(text):
            if section not in sections[name]:
                missing.append(f"{path.relative_to(ROOT)}: {name}.md, {section!r}")
    assert missing == []


def test_it_points_code_comments_only_at_docs_that_exist():
    missing = []
    for path in project_text_files():
        for doc in set(
            re.findall(r"\bdocs/[\w./-]+\.(?:md|json)", path.read_text(encoding="utf-8", errors="replace"))
        ):
            if not (ROOT / doc).exists():
                missing.append(f"{path.relative_to(ROOT)}: {doc}")
    assert missing == []


# --- the numbers of docs/rules.md are the engine's ------------------------------------------


def block_after(path: Path, marker: str) -> str:
    """The fenced code block or table that follows an HTML comment marker in a markdown file."""
    text = path.read_text(encoding="utf-8")
    rest = text[text.index(f"<!-- {marker} -->") :].split("\n", 1)[1]
    if rest.startswith("```"):
        return rest.split("\n", 1)[1].split("```", 1)[0]
    return rest.split("\n\n", 1)[0]


def table_rows(markdown: str) -> list[list[str]]:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in markdown.splitlines()]
    return [row for row in rows[2:] if row and row[0]]  # skip the heading and the --- line


def table_under(heading: str) -> list[list[str]]:
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index(f"\n{heading}\n") :]
    table = section[section.index("\n|") + 1 :]
    return table_rows(table.split("\n\n", 1)[0])


def number(cell: str) -> int | None:
    cell = cell.replace("**", "").replace(",", "")
    return None if cell == "–" else int(cell)


def worked_game() -> dict[str, Any]:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["hands"].append(json.loads(block_after(RULES, "worked-example: extra hand")))
    return score_record(record)


def test_it_states_the_worked_games_result_as_the_engine_scores_it():
    assert worked_game()["result"] == json.loads(block_after(RULES, "worked-example: result"))


def test_it_states_the_worked_game_hand_by_hand_as_the_engine_scores_it():
    rows = table_rows(block_after(RULES, "worked-example: hands table"))
    hands = worked_game()["hands"]
    assert len(rows) == len(hands)
    for row, hand in zip(rows, hands, strict=True):
        expected = [
            str(hand["number"]),
            hand["dealer"],
            hand["result"],
            *(
                str(hand[key][side])
                for key in ("points", "totals", "chips", "chip_totals")
                for side in ("NS", "EW")
            ),
        ]
        assert row == expected


def test_it_shows_the_record_formats_example_as_the_example_file_and_its_output_as_the_engine_scores_it():
    record = json.loads(block_after(RECORD_FORMAT, "record-format: example input"))
    assert record == json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert score_record(record) == json.loads(block_after(RECORD_FORMAT, "record-format: example output"))


def test_it_lists_every_meld_item_with_the_engines_points_and_chips():
    listed = {}
    for row in table_under("### Meld table"):
        names = [name.strip(" `") for name in row[0].split("/")]
        # "150 / 200" gives each of "triple_aces / quadruple_aces" its own figure; "–" serves both.
        columns = [[part.strip() for part in cell.split("/")] for cell in row[2:5]]
        for index, name in enumerate(names):
            listed[name] = tuple(number(parts[min(index, len(parts) - 1)]) for parts in columns)
    engine = {
        name: (item.single, item.double, item.chips if item.single is not None else None)
        for name, item in tables.MELD_ITEMS.items()
    }
    assert listed == engine


@pytest.mark.parametrize(
    ("game", "deck", "variant"),
    [
        ("standard, single deck", "single", "standard"),
        ("standard, double deck", "double", "standard"),
        ("Check Pinochle (single deck)", "single", "check"),
    ],
)
def test_it_states_the_default_target_and_minimum_bid_of_each_game(game, deck, variant):
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index("\n| game | target | minimum bid |") + 1 :].split("\n\n", 1)[0]
    rows = {row[0]: (number(row[1]), number(row[2])) for row in table_rows(section)}
    assert rows[game] == (tables.default_target(deck, variant), tables.default_min_bid(deck))


def test_it_states_the_trick_points_and_tricks_per_hand_the_engine_applies():
    points = {row[0]: number(row[3]) for row in table_under("### Trick points")}
    assert points == tables.TRICK_POINTS
    per_hand = {int(row[0]): (number(row[1]), number(row[2])) for row in table_under("### Tricks per hand")}
    assert per_hand == {
        seats: (tables.TRICKS_PER_HAND["single"][seats], tables.TRICKS_PER_HAND["double"][seats])
        for seats in (4, 3, 2)
    }


def test_it_states_the_contract_and_game_chips_the_engine_pays():
    for row in table_under("### Contract chips")[:-1]:  # the last row is the rule "each further 5"
        bids = [int(bid) for bid in re.findall(r"\d+", row[0])]
        assert {tables.contract_chips(bid) for bid in bids} == {int(row[1])}, row
    for row in table_under("### Game chips"):
        leads = [0] if row[0] == "0 or less" else [int(lead) for lead in row[0].split("–")]
        assert {tables.game_chips(lead) for lead in leads} == {int(row[1])}, row
    text = RULES.read_text(encoding="utf-8")
    assert f"wins all {tables.TRICKS_PER_HAND['single'][4]} tricks wins **{tables.SLAM_CHIPS}** chips" in text
    assert f"a roundhouse wins **{tables.ROUNDHOUSE_CHIPS} chips**" in text
    assert f"wins {tables.GAME_CHIPS_BASE} chips plus 1 for every started 10 points" in text


# --- the README and the docs name what the code has -----------------------------------------

SETTINGS_DOC = DOCS / "settings.md"
#: Sections of docs/settings.md that list make's variables and the test tools', not the site's settings.
NOT_SITE_SETTINGS = ("Make variables", "Tests and benchmarks only")
DOCUMENTED_URL = re.compile(r"`(/[^`\s]*)`")
#: The docs that name the addresses of pages to open (the others name URL prefixes and folders).
PAGE_GUIDES = ("user-guide.md", "csv.md", "operations.md", "benchmarks.md")


def test_the_readme_opens_with_the_two_commands_that_set_everything_up():
    top = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:8]
    assert any(line.startswith("make run ") for line in top)
    assert any(line.startswith("make test ") for line in top)


def test_the_settings_page_lists_every_setting_read_from_the_environment_and_no_other():
    code = (ROOT / "pinochle_site" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r"\benv(?:bool|int|str|list)\(\s*\"([A-Z_]+)\"", code))
    read |= {"DATABASE_URL"}  # read by dj_database_url.config()
    sections = SETTINGS_DOC.read_text(encoding="utf-8").split("\n## ")
    site = "\n".join(section for section in sections if not section.startswith(NOT_SITE_SETTINGS))
    listed = set(re.findall(r"^\| `([A-Z_]+)`", site, flags=re.MULTILINE))
    assert listed == read


def test_every_benchmark_target_of_the_makefile_is_described():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^(bench[\w-]*):", makefile, flags=re.MULTILINE))
    described = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    assert {target for target in targets if f"`make {target}`" not in described} == set()


def test_the_pages_the_readme_and_the_guides_send_people_to_are_the_apps():
    from django.urls import Resolver404, resolve

    unknown = []
    for doc in [ROOT / "README.md", *(DOCS / name for name in PAGE_GUIDES)]:
        for address in DOCUMENTED_URL.findall(doc.read_text(encoding="utf-8")):
            path = address.split("#", 1)[0].replace("<YYYY-MM>", "2026-09").replace("…", "x")
            path = re.sub(r"<[^>]+>", "1", path)
            try:
                resolve(path)
            except Resolver404:
                unknown.append(f"{doc.relative_to(ROOT)}: {address}")
    assert unknown == []
