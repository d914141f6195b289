"""Pages of the scorekeeper: small function views over forms, selectors and services, one module
per job (the game page and its live poll, hands, league details, handing over, settings). Every
form works as a plain POST (redirect after a write); an htmx request gets the page's fragment
instead ("page.html#fragment", the fragment's id is its hx-target)."""
