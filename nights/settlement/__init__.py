"""The chip ledger of a club night: who won what, and the fewest payments that settle it.

Plain Python (no Django). Every rule here is zero-sum: the balances of a night always add up to 0.

**Check Pinochle chips are settled pair-wise.** A game's result gives each side (partnership) its
net chips, and the two sides' chips add up to zero (rule book, section 6). Each partner of a side
collects or pays the side's chips in full: a side at +6 gives each of its two players +6 and each
of its two opponents -6 (the four balances +6, +6, -6, -6 add up to 0). A night's net chips per
player are the sum over the games they played.

**Money from chips**: net chips x the club's stake per chip (`Decimal`, e.g. `Decimal("0.50")`).

**Standard nights, stake per game won**: every player on a losing side pays the stake once, and the
winning side's players share what the losers paid equally. At 4 seats each loser pays 1 stake and each
winner collects 1 stake; at 3 seats the two losers pay 1 stake each and the winner collects 2; at
2 seats the loser pays 1 and the winner collects 1. A drawn game (no winner) moves no money.

**Fewest payments.** Given balances that add up to zero (positive: is owed, negative: owes), the
payments "payer pays payee amount" that settle every balance exactly. With n players who do not
break even, n - 1 payments always suffice; the minimum is n - k, where k is the largest number of
groups the players can be split into so that every group's balances add up to zero (each group
settles within itself with one payment fewer than its size). `fewest_payments` finds that k exactly
when at most `EXACT_LIMIT` (20) players do not break even (a search over all subsets, as bit sets:
a fraction of a second for 20); beyond that, pairs that cancel out are settled first, what is left
is searched exactly if it is within the limit, and otherwise settled greedily (the largest debtor
pays the largest creditor): at most n - 1 payments. Ties are broken by a given order of the players
(the ledger's: by name, then id), and pairs the caller prefers (the proposals already shown) are
kept wherever they cost no extra payment.

Worked example: Anna +12, Bo -12, Cleo +5, Dan -3, Eva -2. The groups {Anna, Bo} and {Cleo, Dan,
Eva} each add up to zero, so 1 + 2 = 3 payments: Bo pays Anna 12, Dan pays Cleo 3, Eva pays Cleo 2.
The greedy rule alone is not always this good: for +5 +4 -4 -3 -2 it makes 4 payments (the -4 pays
the +5 first), the groups {+4, -4} and {+5, -3, -2} need only 3.
"""
