import os

import pytest
from django.core.cache import cache
from hypothesis import settings as hypothesis_settings

# Property tests: a quick profile while working (25 examples each), the full 200 in CI
# (`.ci/run` sets HYPOTHESIS_PROFILE=ci). A test that asks for fewer examples (a slow property)
# keeps its number in CI and gets at most the quick number otherwise.
hypothesis_settings.register_profile("quick", max_examples=25)
hypothesis_settings.register_profile("ci", max_examples=200)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))

# pytest-playwright runs an asyncio loop in the test thread; Django's ORM calls from the
# live-server tests are still synchronous and safe there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def pytest_configure(config):
    # Playwright's `expect` waits 5 s by default. On a 2-core CI machine that also runs the live
    # server, the database and Chromium, a page can take longer than that to answer: wait 15 s
    # before calling a missing message missing.
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-dev-shm-usage",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # A phone held in one hand: 390 x 844 CSS pixels, touch.
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    }


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """Test on an SQLite file, not in memory: the live server's threads then share it through WAL
    (as in production) instead of an in-memory shared cache that fails with "table is locked" when
    a live preview reads while a save writes."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


@pytest.fixture
def table_client(db):
    """The test client signed in as the account that created the games of tests/helpers.py: it may
    enter, correct and delete their hands (an edit right, as the scoring phone has). Not a persona:
    it holds no club role, only the games check_game() says it created."""
    from tests.access_helpers import signed_in
    from tests.helpers import table_user

    return signed_in(table_user())


@pytest.fixture(autouse=True)
def _browser_pages_closed(request):
    """A browser test's phones are closed when it ends, passed or failed: the live server lasts the
    whole session, and a page left open goes on polling it through the next tests (a failed night
    test left a board and several phones loading it until later pages' scripts came late)."""
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    browser = request.getfixturevalue("browser")
    yield
    for context in browser.contexts:
        context.close()


@pytest.fixture(autouse=True)
def _tasks_in_the_request(settings):
    """Background tasks (imports) run during the request in tests, by Django's immediate task
    backend: a worker process would not see a test's transaction. league/tests/test_import_worker.py
    runs the real database queue and a `db_worker` process."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Every test logs in with MD5: the real hasher is slow on purpose, and no test is about the hash."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _the_sites_language():
    """Each test starts in the site's language: a request in another language leaves that language
    active in the thread (Django's LocaleMiddleware activates it per request and a server's next
    request activates its own), and a command the next test runs would speak it."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _drawn_fragments_forgotten():
    """Each test draws its pages afresh: a test that changes a label or a template in place must not
    meet a row a former test drew (in a server the keys hold every value a fragment shows)."""
    cache.clear()


@pytest.fixture
def people(db):
    """The personas, the tests' one source of them: alice organises CLUB, bob scores for it,
    charlie is a member, dave organises OTHER_CLUB (tests/access_helpers.py), each with an account
    whose password is PASSWORD; root, the site's superuser, when a test asks for it
    (`people.superuser()`). A test or fixture that needs a persona asks for `people` (or for a
    fixture built on it) and never makes one itself; a test about some other account makes that
    account. A live-server test gets them in its own transactional database.

    It is a tests.access_helpers.People: `people["alice"]` is her account, `people.client("bob")` a
    client signed in as bob, and `people.organiser_of(club)` (`scorer_of`, `member_of`) grants the
    role in a club the test made and returns the persona's client."""
    from django.contrib.auth.models import User
    from django.core.management.color import no_style
    from django.db import connection

    from clubs.models import Club, ClubRole
    from tests.access_helpers import CLUB, OTHER_CLUB, PASSWORD, PERSONAS, People

    users = {name: User.objects.create_user(name, f"{name}@example.org", PASSWORD) for name in PERSONAS}
    for club_id in (CLUB, OTHER_CLUB):
        Club.objects.get_or_create(pk=club_id, defaults={"name": f"Club {club_id}"})
    # The two clubs have ids of their own: a club the test makes next must get a new one (on
    # PostgreSQL the id sequence does not move past rows written with their id; as loaddata does).
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Club]):
            cursor.execute(sql)
    ClubRole.objects.create(user=users["alice"], club_id=CLUB, role=ClubRole.Role.ORGANISER)
    ClubRole.objects.create(user=users["bob"], club_id=CLUB, role=ClubRole.Role.SCORER)
    ClubRole.objects.create(user=users["charlie"], club_id=CLUB, role=ClubRole.Role.MEMBER)
    ClubRole.objects.create(user=users["dave"], club_id=OTHER_CLUB, role=ClubRole.Role.ORGANISER)
    return People(users)
