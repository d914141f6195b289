"""The plumbing every app may use: no models, no views, no import of any app.

`strict_input` (JSON and text read strictly), `fields` (the number fields of every form),
`spreadsheet` (CSV cells a spreadsheet never runs as formulas), `lookalike` (names that look the
same), `qr` and `lan`. The client's address and the throttles are the `throttles` app.
"""
