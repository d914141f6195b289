"""The site's own middleware: forms in UTF-8 only, and whose session a page was drawn for."""

from collections.abc import Callable

from django.http import (
    HttpRequest,
    HttpResponseBadRequest,
    HttpResponseBase,
)
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext


class RefuseForeignCharsetMiddleware:
    """A form posted in another character set than UTF-8 gets 400, not a 500.

    Every page here is UTF-8 and so is every form a browser posts back; a body declared as
    UTF-16, UTF-32 or Latin-1 (`Content-Type: …; charset=utf-16`) comes from a script, and
    Django's form parser fails on it in ways that end as server errors.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        charset = request.content_params.get("charset") if request.content_params else None
        # As Django's own check of url-encoded forms: exactly "utf-8", in any case.
        if charset is not None and charset.lower() != "utf-8":
            return HttpResponseBadRequest(
                gettext("This site reads forms in UTF-8 only."), content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)


#: The response header that tells the service worker whose session a page was drawn for.
SESSION_TAG_HEADER = "X-Session-Tag"


def session_tag(request: HttpRequest) -> str:
    """Who a page was drawn for, as the service worker needs to know it: a keyed hash of the
    signed-in session (a new one at every login, gone at logout), or "anonymous". The worker
    keeps pages for offline use only for the tag it last heard (templates/sw.js), so the pages of
    an account that logged out (its name in the header, a game's recovery code) are dropped at the
    first answer of the next session and never served to it."""
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None  # read without loading the session
    if not key or not request.user.is_authenticated:
        return "anonymous"
    return salted_hmac("pinochle_site.session-tag", key).hexdigest()[:20]


class SessionTagMiddleware:
    """Every page the site draws says whose session it was drawn for (`session_tag`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response[SESSION_TAG_HEADER] = session_tag(request)
        return response
