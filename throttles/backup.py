"""The throttles' counts are not in a backup: they are transient (each is forgotten within its window)."""

from backups.parts import Part

PART = Part(
    derived={
        "throttles.Count": "transient: recent attempts counted by the throttles, forgotten after the window",
    }
)
