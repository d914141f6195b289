"""The committed translations are complete, compiled, and cover every string in the code."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("sv", "cs")
PLURAL_FORMS = {
    "sv": "nplurals=2; plural=(n != 1);",
    "cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
}


def po_path(lang: str, root: Path = ROOT) -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / "django.po"


def catalogue(entries) -> dict[tuple[str | None, str], object]:
    """(context, msgid) -> translation; plural entries map to the tuple of their forms."""
    result: dict[tuple[str | None, str], object] = {}
    for entry in entries:
        if entry.obsolete or not entry.msgid:
            continue
        if entry.msgid_plural:
            result[(entry.msgctxt, entry.msgid)] = tuple(
                entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)
            )
        else:
            result[(entry.msgctxt, entry.msgid)] = entry.msgstr
    return result


@pytest.mark.parametrize("lang", LANGS)
def test_it_has_no_untranslated_or_fuzzy_entry(lang):
    po = polib.pofile(str(po_path(lang)))
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert untranslated == [], f"{lang}: untranslated: {untranslated}"
    assert fuzzy == [], f"{lang}: fuzzy: {fuzzy}"
    assert not po.metadata_is_fuzzy, f"{lang}: the header is marked fuzzy"


@pytest.mark.parametrize("lang", LANGS)
def test_it_declares_the_plural_forms_of_the_language(lang):
    po = polib.pofile(str(po_path(lang)))
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[lang]
    assert po.metadata["Language"] == lang


@pytest.mark.parametrize("lang", LANGS)
def test_it_keeps_the_placeholders_of_every_message(lang):
    import re

    placeholder = re.compile(r"%\(\w+\)s")
    for entry in polib.pofile(str(po_path(lang))).translated_entries():
        expected = set(placeholder.findall(entry.msgid))
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            assert set(placeholder.findall(form)) == expected, (lang, entry.msgid, form)


@pytest.mark.parametrize("lang", LANGS)
def test_the_committed_mo_file_matches_the_po_file(lang):
    """A fresh machine may lack gettext, so the .mo files are committed; they must not go stale."""
    po = polib.pofile(str(po_path(lang)))
    mo = polib.mofile(str(po_path(lang).with_suffix(".mo")))
    assert catalogue(mo) == catalogue(po.translated_entries()), (
        f"locale/{lang}/LC_MESSAGES/django.mo is out of date: run `make messages` and commit it"
    )
    assert mo.metadata.get("Plural-Forms") == PLURAL_FORMS[lang]


@pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="needs gettext's xgettext (.ci/system-deps installs it)"
)
def test_every_translatable_string_in_the_code_is_in_the_po_files(tmp_path):
    """Run makemessages on a copy of the project and compare its messages with the committed ones."""
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "test-output", "staticfiles", "*.sqlite3*", "__pycache__", ".*_cache"
        ),
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "sv", "-l", "cs", "--ignore=.venv", "-v0"],
        cwd=copy,
        check=True,
        capture_output=True,
    )
    for lang in LANGS:
        fresh = set(catalogue(polib.pofile(str(po_path(lang, copy)))))
        committed = set(catalogue(polib.pofile(str(po_path(lang)))))
        missing = sorted(m for _, m in fresh - committed)
        stale = sorted(m for _, m in committed - fresh)
        assert missing == [], f"{lang}: strings not in the .po file (run `make messages`): {missing}"
        assert stale == [], f"{lang}: strings no longer in the code (run `make messages`): {stale}"


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_the_question_after_a_save_names_the_words_of_its_buttons(lang):
    """The question "Not saved: this form already saved hand N …" tells which button to tap in that
    button's own words, and so does the note by the entry form's Save while the question is open
    (English: the messages as written in the code)."""
    words = catalogue(polib.pofile(str(po_path(lang)))) if lang != "en" else {}

    def msgstr(msgid: str) -> str:
        text = words[(None, msgid)] if lang != "en" else msgid
        assert isinstance(text, str)
        return text

    question = msgstr(
        "Not saved: this form already saved hand %(number)d, with other values. Hand %(number)d is "
        "stored as shown below. To change it to what you entered, tap “Apply my values as a correction "
        "of hand %(number)d”; if yours is a new hand, tap “Save my values as hand %(next)d”."
    ) % {"number": 1, "next": 2}
    note = msgstr(
        "Saving here is off until you answer the question above: tap “Apply my values as a correction "
        "of hand %(number)s” or “Save my values as hand %(next)s”."
    ) % {"number": 1, "next": 2}
    correct = msgstr("Apply my values as a correction of hand %(number)s")
    save = msgstr("Save my values as hand %(number)s")
    for text in (question, note):
        assert correct % {"number": 1} in text
        assert save % {"number": 2} in text
