"""What the server gives the phone for the table's offline use: the service worker from
the site root, the manifest and icons."""

import json
import re
import uuid
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static

from scoring.models import Game, Hand
from scoring.services.hands import record_hand
from tests.helpers import quick_hand, standard_game

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_site_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    worker = response.content.decode()
    assert static("js/outbox.js") in worker and static("js/outbox-view.js") in worker
    assert static("js/table.js") in worker
    assert static("css/app.css") in worker
    assert re.search(r'const CACHE = "pinochle-[0-9a-f]{12}";', worker)


def test_the_service_worker_keeps_every_script_and_style_the_game_page_loads(table_client, client):
    """Offline, the game page is the kept copy: each file it loads must be kept with it, or the
    phone runs the page without it."""
    game = standard_game()
    page = table_client.get(f"/g/{game.code}/").content.decode()
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"', page))
    assert loaded, "the game page loads scripts and styles"
    worker = client.get("/sw.js").content.decode()
    assert sorted(path for path in loaded if path not in worker) == []


def test_the_service_worker_speaks_the_phones_language_when_a_page_was_never_opened(client):
    client.cookies["django_language"] = "sv"
    worker = client.get("/sw.js").content.decode()
    assert "Telefonen har inget nät" in worker


def test_every_page_links_the_manifest_and_the_manifest_names_installable_icons(client):
    page = client.get("/").content.decode()
    assert f'<link rel="manifest" href="{static("manifest.webmanifest")}">' in page
    assert 'id="table-strings"' in page
    manifest_path = finders.find("manifest.webmanifest")
    assert isinstance(manifest_path, str)
    manifest = json.loads(Path(manifest_path).read_text(encoding="utf-8"))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert finders.find(f"icons/{icon['src'].split('/')[-1]}"), icon


def test_a_retried_save_answers_with_the_game_as_it_is_now_not_as_it_was_when_the_retry_arrived():
    """A phone retries a Save whose answer was lost while the first try is still being saved: the
    retry read the game before that save, and its answer must still show hand 1 saved."""
    game = standard_game()
    read_before_the_save = Game.objects.get(pk=game.pk)
    submission = uuid.uuid4()
    record_hand(game=game, number=1, data=quick_hand(), submission_id=submission)
    record_hand(game=read_before_the_save, number=1, data=quick_hand(), submission_id=submission)
    assert read_before_the_save.hand_count == 1
    assert Hand.objects.filter(game=game).count() == 1
