"""Reads for the pages, one module per job, all scored by the engine: `board` (a game's
scoreboard, history and awards), `ending` (why a game ended), `preview` (what a hand or a
correction does), `settings_change` (what a change of the settings does) and `lists` (the
games list).

A scoreboard costs three queries whatever the number of hands (game, seats, hands), none right
after a save (drawn from what the save stored); the engine does the arithmetic in Python.
"""
