"""The Pinochle rules engine: plain Python, no Django. docs/rules.md is its specification."""
