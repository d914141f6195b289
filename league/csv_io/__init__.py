"""CSV export (games.csv, hands.csv) and import (hands.csv, JSON game records).

Export streams: two ordered ORM queries (the games with their seats' names, the hands with their
HandStat rows, each joined by `FilteredRelation`) are read side by side with
`.iterator(chunk_size=...)`, so memory stays flat whatever the size and the number of queries is
fixed.
Cells are neutralised against CSV injection; the file starts with a UTF-8 BOM so spreadsheet
programs read å, ö, č, ř right. docs/csv.md lists every column.

Import reads a file game by game (`FileReader`: a hands.csv decoded as it is read, JSON records
one at a time), every game through the rules engine, and reports every bad row (line and
reason). Both imports, an upload's task and the import_games command, go through
`league.imports.worker` (checked games written in hidden chunks as it reads, then published).
"""
