"""What every request maker shares: the random source, the seeded database's state, and the
damage done to a valid form."""

from __future__ import annotations

import random

from bench.fuzz.payloads import BAD_CODES, BAD_INTS, NASTY
from bench.fuzz.state import State


class Maker:
    def __init__(self, rng: random.Random, state: State) -> None:
        self.rng, self.state = rng, state
        self.password_guesses = 0

    def nasty(self) -> str:
        return self.rng.choice(NASTY)

    def damage(self, fields: dict[str, str], extra_keys: list[str]) -> list[tuple[str, str]]:
        """A valid form with one to four kinds of damage."""
        rng = self.rng
        items = dict(fields)
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            keys = list(items) or ["x"]
            if kind < 0.25 and items:
                items.pop(rng.choice(keys), None)  # a missing field
            elif kind < 0.7:
                items[rng.choice(keys + extra_keys)] = self.nasty()  # a wrong value
            elif kind < 0.85:
                items[rng.choice([*extra_keys, "x", "csrfmiddlewaretoken"])] = self.nasty()
            else:
                items = {key: self.nasty() for key in items}  # everything wrong at once
        pairs = list(items.items())
        if rng.random() < 0.1 and pairs:
            pairs.append((rng.choice(pairs)[0], self.nasty()))  # the same key twice
        return pairs

    def csrf(self) -> str:
        roll = self.rng.random()
        return "missing" if roll < 0.08 else "wrong" if roll < 0.12 else "ok"

    def code(self) -> str:
        pool = self.state.codes + self.state.web_codes
        return self.rng.choice(pool) if self.rng.random() < 0.85 else self.rng.choice(BAD_CODES)

    def int_id(self, real: list[int]) -> str:
        return str(self.rng.choice(real)) if self.rng.random() < 0.8 else self.rng.choice(BAD_INTS)
