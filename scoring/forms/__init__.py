"""Forms of the scorekeeper, one module per job: setting a game up, entering a hand, its league
details, its settings after Start (the number fields every form shares are core.fields)."""
