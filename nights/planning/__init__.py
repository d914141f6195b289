"""Drawing the tables of a club night: who sits where, with whom, in every round.

Plain Python (no Django), deterministic: the same players, table sizes, rounds and seed always give
the same plan.

Input: the player ids present in check-in order, the table sizes the variant allows (Check Pinochle:
`(4,)`; the standard game: `(4, 3, 2)`), the number of rounds and a seed.

Output: a `NightPlan` whose rounds are lists of tables plus the players on a bye. A table lists its
seats in the order N, E, S, W (`Table.seats`); at 4 seats the partners are N-S and E-W, at 3 and 2
seats every player plays alone.

Rules the draw keeps, in this order of importance:

1. **Table sizes.** As many 4-seat tables as the allowed sizes permit, then 3-seat, then 2-seat
   ones: 9 players at `(4, 3, 2)` give 4 + 3 + 2, 10 give 4 + 4 + 2, 11 give 4 + 4 + 3.
2. **Byes** only when the players present cannot all be seated (Check Pinochle with a number that
   is not a multiple of 4, or a single player): the bye goes to whoever has had the fewest byes, then
   to whoever has played the most rounds (so a late arrival is not sent off at once), then by the
   seeded order of the night. 9 players over 9 rounds of Check Pinochle: everyone sits out once.
   A Check Pinochle night may instead seat the 2 or 3 players its tables of four leave over at one
   standard table (`leftover_table`): 10 give 4 + 4 + 2, 11 give 4 + 4 + 3; a single player left
   over (9 present) still sits out. The seats at that table rotate like any smaller table's.
3. **Partners rotate**: nobody partners the same person twice while it can be avoided. Each round
   is drawn by a local search (swapping two players, or two partnerships between tables) that
   starts from a round robin of the players: with 8 players, 7 rounds in which everyone partners
   every other player exactly once and meets every other player twice as an opponent (a whist
   schedule; the starter pairs are found by a small search, `_starter`).
4. **Opponents spread**: the search also keeps down how often two players have already met as
   opponents (it adds the meetings so far of every new pair of opponents, which keeps the sum of
   squares of the meeting counts low), and rotates who plays at the smaller 3- and 2-seat tables.

The night is drawn first with partners free to leave the round robin (best for spreading
opponents); if a partnership then repeats, it is drawn again holding to the round robin, and then
from other seeded orders of the players (at most 8 draws, a fixed number so the result never
depends on the machine's speed); the draw with the fewest repeats, then the most even opponents,
is kept. 40 players over 8 rounds take about 0.03 s.

Changes during the night keep what has been played: `swap_players` swaps two players in a round that
has not started yet and re-draws the rounds after it; `add_player` and `remove_player` re-draw the
rounds from a given round on for the new list of players present. Rounds before it stay as they are.

A night with a movement (progressive, lowest total stays, fixed) draws only round 1 this way; each
later round is planned from the round before and its results by `movements.next_round`.
"""
