"""Forms of the night pages, one module per page: opening a night (`opening`), and the players of
a night under way: a newcomer checked in, a swap, a late arrival, a player leaving (`players`).
Each bad input gets its message next to its field, nothing is written."""
