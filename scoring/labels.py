"""Names of the rule book's items in the players' language.

The engine (`scoring.rules`) speaks in stable English keys (`double_pinochle`); pages show these
translated labels instead. Kept outside the engine so it stays free of Django.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

MELD_LABELS: dict[str, Promise] = {
    "run": _("Run (A-10-K-Q-J of trump)"),
    "double_run": _("Double run"),
    "triple_run": _("Triple run"),
    "quadruple_run": _("Quadruple run"),
    "trump_marriage": _("Marriage in trump (K-Q outside a run)"),
    "marriage": _("Marriage in another suit (K-Q)"),
    "dix": _("Dix (9 of trump)"),
    "pinochle": _("Pinochle (Q♠ and J♦)"),
    "double_pinochle": _("Double pinochle"),
    "triple_pinochle": _("Triple pinochle"),
    "quadruple_pinochle": _("Quadruple pinochle"),
    "aces": _("Aces around (an ace of each suit)"),
    "double_aces": _("Double aces around"),
    "triple_aces": _("Triple aces around"),
    "quadruple_aces": _("Quadruple aces around"),
    "kings": _("Kings around"),
    "double_kings": _("Double kings around"),
    "triple_kings": _("Triple kings around"),
    "quadruple_kings": _("Quadruple kings around"),
    "queens": _("Queens around"),
    "double_queens": _("Double queens around"),
    "triple_queens": _("Triple queens around"),
    "quadruple_queens": _("Quadruple queens around"),
    "jacks": _("Jacks around"),
    "double_jacks": _("Double jacks around"),
    "triple_jacks": _("Triple jacks around"),
    "quadruple_jacks": _("Quadruple jacks around"),
}
