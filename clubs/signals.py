"""Signals clubs sends: the apps above it (scoring, nights, the ledger) keep their own rows in step,
each in its own receiver, without clubs importing them or writing their tables.

`players_merging(keep=…, duplicate=…)` is sent by `services.merge_players` inside its transaction,
before the duplicate's rosters move and the duplicate is deleted. Each receiver either refuses the
merge (ValidationError: its rows show the two are two people; the transaction then writes nothing)
or moves its rows of the duplicate to `keep`.

`scoring_ended(club_id=…, user=…)` is sent by `services.set_club_role` inside its transaction when
someone who scored for the club (organiser or scorer) no longer does.

`rows_filed_under(instance=…)` (sender: `Club` or `Season`) asks whether another app files rows
under the club or season; a receiver answers True when it does, and the admin then keeps the
club or season from being deleted.
"""

from django.dispatch import Signal

players_merging = Signal()
scoring_ended = Signal()
rows_filed_under = Signal()
