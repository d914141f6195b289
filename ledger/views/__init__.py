"""The ledger's pages, one module per page: a night's settlement (`nights`), a season's balances
(`seasons`), a player's monthly statement, page and CSV (`statements`); for organisers, marking a
proposed payment as made, recording any payment, taking one back, and locking a settled night
(plain POSTs, then a redirect). The payment forms and messages the night and season pages share
are `payments`; the club a URL belongs to, for the role checks, is `access`.

Reading is for every role of the club (organiser, scorer, member) and site admins; the published
results link does not show money (docs/security.md).
"""
