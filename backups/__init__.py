"""The backup file's machinery: the order of the apps' parts and the checks every part's rows go
through. Imports no app of the project; each app's `backup.py` imports it (docs/architecture.md)."""
