"""Dates in the reader's language (settings.FORMAT_MODULE_PATH).

Each language's `formats.py` names how its pages print a date: English never as 09/01/2026, which
reads as January in Europe and September in America, Swedish and Czech as their readers write
them. What a module leaves out comes from Django's own locale formats. The forms' date inputs
(`type="date"`) and the CSV files stay ISO 8601 (`2026-09-01`) in every language.
"""
