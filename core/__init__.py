"""The plumbing every app may use: no models, no views, no import of any app.

`strict_input` (JSON and text read strictly), `fields` (the number fields of every form),
`spreadsheet` (CSV cells a spreadsheet never runs as formulas), `ratelimit` (the client's address
behind the proxies, and the sliding-window throttles), `lookalike` (names that look the same),
`qr` and `lan`.
"""
