"""Signals clubs sends: the apps above it (scoring, nights, the ledger) keep their own rows in step,
each in its own receiver, without clubs importing them or writing their tables.

`players_merging(keep=…, duplicate=…)` is sent by `services.merge_players` inside its transaction,
before the duplicate's rosters move and the duplicate is deleted. Each receiver either refuses the
merge (ValidationError: its rows show the two are two people; the transaction then writes nothing)
or moves its rows of the duplicate to `keep`.

`scoring_ended(club_id=…, user=…)` is sent by `services.set_club_role` inside its transaction when
someone who scored for the club (organiser or scorer) no longer does.
"""

from django.dispatch import Signal

players_merging = Signal()
scoring_ended = Signal()
