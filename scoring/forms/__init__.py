"""Forms of the scorekeeper, one module per job: setting a game up, entering a hand, its league
details, its settings after Start, and the number fields they share."""

from core.fields import PlainDecimalField, WholeNumberField
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
    "PlainDecimalField",
    "WholeNumberField",
    "hand_initial",
]
