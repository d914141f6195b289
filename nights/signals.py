"""Signals the nights send; the ledger (which imports nights, not the other way) keeps its own rows.

`night_removing(night=…, keep_payments=…, removed_by=…)` is sent by `removal.remove_night` inside
its transaction, before anything is removed: a receiver refuses (ValidationError, nothing removed)
or lets go of its rows of the night (the ledger takes back the payments marked for it).
"""

from django.dispatch import Signal

night_removing = Signal()
