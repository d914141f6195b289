"""`make run HOST=0.0.0.0` prints the address phones on the same Wi-Fi open, with a QR code."""

import io
import socket

from django.core.management import call_command

from core import lan
from scoring.management.commands import table_url


def test_it_prints_the_private_address_and_a_qr_code_for_the_phones(monkeypatch):
    monkeypatch.setattr(table_url, "private_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    out = io.StringIO()
    call_command("table_url", "--host", "0.0.0.0", "--port", "8000", stdout=out)
    text = out.getvalue()
    assert "Phones on the same Wi-Fi open http://192.168.1.23:8000/" in text
    assert "(or http://10.0.0.5:8000/)" in text
    assert text.count("\n") > 15 and "█" in text  # the QR code, drawn in block characters


def test_on_the_loopback_address_it_says_phones_cannot_reach_it():
    out = io.StringIO()
    call_command("table_url", "--host", "127.0.0.1", "--port", "8000", stdout=out)
    assert "this machine only; HOST=0.0.0.0 for phones" in out.getvalue()


def test_it_says_so_when_this_machine_has_no_private_address(monkeypatch):
    monkeypatch.setattr(table_url, "private_addresses", lambda: [])
    out = io.StringIO()
    call_command("table_url", "--host", "0.0.0.0", stdout=out)
    assert "No private network address found" in out.getvalue()


def test_only_private_addresses_are_offered(monkeypatch):
    monkeypatch.setattr(
        socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.1.1", "8.8.8.8", "192.168.0.7"])
    )
    addresses = lan.private_addresses()
    assert "192.168.0.7" in addresses
    assert "127.0.1.1" not in addresses and "8.8.8.8" not in addresses
