"""Forms of the league pages, one module per page as in `league.views`: exporting and importing
games (`files`), merging a player entered twice (`records`), a club's roles (`roles`). They own
the validation of what a user sent."""
