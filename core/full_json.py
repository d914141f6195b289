"""Django's JSON serialization (`dumpdata`, `loaddata`: the `backup` and `restore` commands) with
every microsecond of a time kept: Django's own encoder cuts times to milliseconds, and pages that
name a row's version by its time (a scoreboard's refresh link) would change after a restore.
Installed as the "json" format by SERIALIZATION_MODULES (pinochle_site/settings.py)."""

import datetime
from typing import Any

from django.core.serializers.json import Deserializer, DjangoJSONEncoder
from django.core.serializers.json import Serializer as DjangoSerializer

__all__ = ["Deserializer", "Serializer"]


class Encoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class Serializer(DjangoSerializer):
    def serialize(self, queryset: Any, **options: Any) -> Any:
        return super().serialize(queryset, **{"cls": Encoder, **options})
