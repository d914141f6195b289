"""The night pages, mounted at /nights/: open a night, check players in, draw and change the plan,
start rounds, table links and cards, the wall plan, live standings, prizes and groups, the night's
results and each player's card, finish and remove.

Organisers of the night's club run it (`require_club_role("manage")`); every club role reads its
standings, results, players' cards and the wall plan; a published season's link shows its nights'
standings, results and players' cards to anyone;
whoever holds a table's link scores that table's game. Plain forms with post/redirect/get; the
standings poll with htmx (an ETag answers 304 while nothing changed).
"""
