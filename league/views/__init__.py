"""League pages: clubs, season standings, players, published results, CSV export and import.

The POST views (merge players, import, roles, publishing a season)
validate with a form and write through clubs.services or league.services; everything else only
reads. Who may do what (docs/security.md): a club's records are read by its roles; organisers
merge players, change roles and publish seasons; scorers and organisers file and import games.
"""
