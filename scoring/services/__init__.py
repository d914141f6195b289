"""Writes and the reads that score: every change of hands goes through here, one module per job
(`games` starts and deletes a game, `hands` writes its hands, `results` scores and stores).

One way through: `rules.engine.check_record` checks a record and returns the engine's result (`score` asks
it for a stored game); `store_result` writes that result, the game's summary and its derived
statistics, in the transaction that changed the hands. Each write checks the whole game before
anything is saved, so a refused hand writes nothing, and it returns what it stored (`Stored`) so
the page can be drawn without scoring the game again.
"""
