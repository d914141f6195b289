"""The night pages, mounted at /nights/: open a night, check players in, draw and change the plan,
start rounds, table links and cards, the wall plan, live standings, finish and remove.

Organisers of the night's club run it (`require_club_role("manage")`); every club role reads its
standings and the wall plan; a published season's link shows its nights' standings to anyone;
whoever holds a table's link scores that table's game. Plain forms with post/redirect/get; the
standings poll with htmx (an ETag answers 304 while nothing changed).
"""
