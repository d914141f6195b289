"""Forms of the scorekeeper, one module per job: setting a game up, entering a hand, its league
details, its settings after Start (the number fields every form shares are core.fields)."""

from scoring.forms.details import GameDetailsForm
from scoring.forms.fields import FixedChoices
from scoring.forms.game import GameForm, GameRulesForm
from scoring.forms.hand import HandForm
from scoring.forms.hand_initial import hand_initial
from scoring.forms.settings import GameSettingsForm

__all__ = [
    "FixedChoices",
    "GameDetailsForm",
    "GameForm",
    "GameRulesForm",
    "GameSettingsForm",
    "HandForm",
    "hand_initial",
]
