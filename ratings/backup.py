"""Ratings are not in a backup: every one of them is computed from the games, and a restore
computes them again from the restored games (`league.backup.load`)."""

from backups.parts import Part

PART = Part(
    derived={
        "ratings.RatingScope": "derived: the last game rated per scope, recomputed from the games",
        "ratings.PlayerRating": "derived: each player's rating, recomputed from the games",
        "ratings.RatingPoint": "derived: a player's rating after each game, recomputed from the games",
        "ratings.PairRating": "derived: each partnership's rating, recomputed from the games",
    }
)
