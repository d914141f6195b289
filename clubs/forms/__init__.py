"""Forms of the organiser pages, one module per page: founding a club (`club`), the roster and a
roster player's page (`roster`), the seasons (`seasons`). They own the validation of what an
organiser sent, with the message next to the field it is about. The checks a service also makes
are the service's own (`clubs.services.check_player_name`), called here, not copied."""
