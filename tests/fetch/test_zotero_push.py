"""The push into Zotero (``paperdeck export QUERY --to zotero`` and :mod:`paperdeck.fetch.zotero`)
against a local stand-in for Zotero's connector server (:class:`ZoteroStandIn`): the RIS of the
selection arrives whole (notes and tags included, read back with rispy) after a ping; a Zotero
that is not running, that answers an error, or that hangs is one line, within the deadline."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import orjson
import pytest
import rispy
from paperdeck.export.ris import ris_records
from paperdeck.fetch.zotero import ZoteroError, ZoteroLimits, ZoteroNotRunning, push_to_zotero
from paperdeck.model.paper import Paper, UserData
from paperdeck.paths import seeds_dir

from tests.fetch.hostile_server import ZoteroStandIn, closed_port
from tests.helpers import run
from tests.waits import GUARD_S

#: Waits far above a loaded machine's answer, for a stand-in that answers (an error, a 404): what
#: ends the push is that answer, never a wait run out first (0.5 s was a short margin under load).
ROOMY = ZoteroLimits(connect_s=GUARD_S, ping_s=GUARD_S, import_s=GUARD_S)
#: A short wait for the import alone, so that a hanging stand-in is given up on at once (its ping
#: answers: it is waited for as long as in :data:`ROOMY`).
QUICK_IMPORT = ZoteroLimits(connect_s=GUARD_S, ping_s=GUARD_S, import_s=0.5)


def _papers() -> tuple[list[Paper], dict[str, UserData]]:
    papers = [
        Paper(id="p1", title="Speculative decoding, $k$ drafts", authors=("Jane van Doe", "Li Wei"),
              venue="ICLR", year=2026, abstract="An abstract.", openreview_id="AbCdEf1234"),
        Paper(id="p2", title="A second paper", authors=("Ana Lopez",), venue="ICLR", year=2026, abstract=""),
    ]  # fmt: skip
    users = {"p1": UserData("p1", starred=True, note="read §3 <b>first</b>", tags=("drafting", "to-cite"))}
    return papers, users


def test_the_ris_of_the_selection_reaches_zotero_after_a_ping() -> None:
    papers, users = _papers()
    ris = ris_records(papers, users)
    with ZoteroStandIn() as zotero:
        pushed = push_to_zotero(ris, len(papers), zotero.url)
    assert zotero.pings == 1 and len(zotero.imports) == 1
    path, headers, body = zotero.imports[0]
    assert urlsplit(path).path == "/connector/import"
    assert parse_qs(urlsplit(path).query)["session"][0].startswith("paperdeck-")
    assert headers["Zotero-Allowed-Request"] == "1" and headers["Content-Type"].startswith("text/plain")
    assert body.decode("utf-8") == ris  # the RIS export, byte for byte
    records = rispy.loads(body.decode("utf-8"))
    assert [r["title"] for r in records] == ["Speculative decoding, k drafts", "A second paper"]
    assert {"drafting", "to-cite"} <= set(records[0]["keywords"])
    assert any("first" in note for note in records[0]["notes"])  # the user's note
    assert (pushed.papers, pushed.items) == (2, 2)
    assert pushed.line == "sent 2 papers to Zotero (2 items imported)"


def test_each_push_is_its_own_import_session() -> None:
    papers, users = _papers()
    with ZoteroStandIn() as zotero:
        for _ in range(2):
            push_to_zotero(ris_records(papers, users), 2, zotero.url)
    sessions = {parse_qs(urlsplit(path).query)["session"][0] for path, _, _ in zotero.imports}
    assert len(sessions) == 2  # Zotero answers 409 to a session id used before


def test_zotero_not_running_is_one_line_and_nothing_is_sent() -> None:
    with pytest.raises(ZoteroNotRunning) as raised:
        push_to_zotero("TY  - CONF\r\nER  - \r\n", 1, closed_port(), ROOMY)
    message = str(raised.value)
    assert "\n" not in message and "not running" in message and "nothing was sent" in message


def test_an_error_status_is_one_line() -> None:
    with ZoteroStandIn("error") as zotero, pytest.raises(ZoteroError) as raised:
        push_to_zotero("TY  - CONF\r\nER  - \r\n", 1, zotero.url, ROOMY)
    message = str(raised.value)
    assert "\n" not in message and "500" in message and "read-only" in message


def test_another_server_on_the_port_is_not_sent_the_papers() -> None:
    with ZoteroStandIn("no-connector") as server, pytest.raises(ZoteroError) as raised:
        push_to_zotero("TY  - CONF\r\nER  - \r\n", 1, server.url, ROOMY)
    assert "no Zotero connector there (404)" in str(raised.value) and not server.imports


def test_a_hanging_zotero_is_one_line_within_the_deadline() -> None:
    with ZoteroStandIn("hang") as zotero, pytest.raises(ZoteroError) as raised:
        push_to_zotero("TY  - CONF\r\nER  - \r\n", 1, zotero.url, QUICK_IMPORT)
    message = str(raised.value)
    assert "did not answer within 0.5 s" in message and "\n" not in message
    assert "may or may not be in Zotero" in message


@pytest.mark.parametrize("url", ["ftp://127.0.0.1:23119", "not an address", ""])
def test_an_address_that_is_not_http_is_refused(url: str) -> None:
    with pytest.raises(ZoteroError, match="not an http:// address"):
        push_to_zotero("", 0, url, ROOMY)


# -- paperdeck export --to zotero ---------------------------------------------------------------


@pytest.fixture
def store_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    data = tmp_path / "data"
    code, _, err = run(capsys, "import", *map(str, sorted(seeds_dir().glob("*.txt"))), "--data-dir", str(data))
    assert code == 0, err
    return data


def test_export_to_zotero_sends_the_query_s_papers_with_the_user_s_marks(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--json", "--limit", "2", "--data-dir", str(store_dir))
    first, second = (record["id"] for record in orjson.loads(out))
    run(capsys, "star", first, "--data-dir", str(store_dir))
    run(capsys, "tag", first, "pushed-tag", "--data-dir", str(store_dir))
    run(capsys, "note", first, "--text", "a note for Zotero", "--data-dir", str(store_dir))
    with ZoteroStandIn() as zotero:
        code, out, err = run(capsys, "export", "is:starred", "--to", "zotero", "--zotero-url", zotero.url,
                             "--data-dir", str(store_dir))  # fmt: skip
    assert code == 0, err
    assert out.strip() == "sent 1 paper to Zotero (1 item imported)"
    (record,) = rispy.loads(zotero.imports[0][2].decode("utf-8"))
    assert "pushed-tag" in record["keywords"] and any("a note for Zotero" in n for n in record["notes"])
    assert second  # the other paper stayed out of the query


def test_export_to_zotero_reads_the_address_from_the_settings(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ZoteroStandIn() as zotero:
        (store_dir / "config.json").write_bytes(orjson.dumps({"zotero_url": zotero.url}))
        code, out, err = run(capsys, "export", "--to", "zotero", "--limit", "3", "--json", "--data-dir", str(store_dir))
    assert code == 0, err
    assert orjson.loads(out) == {"to": "zotero", "url": zotero.url, "papers": 3, "items": 3}


def test_export_to_a_zotero_not_running_says_so_in_one_line(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address = closed_port()
    code, out, err = run(capsys, "export", "--to", "zotero", "--zotero-url", address, "--data-dir", str(store_dir))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "Zotero is not running at http://127.0.0.1:" in err


def test_export_to_a_zotero_answering_an_error_says_so_in_one_line(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ZoteroStandIn("error") as zotero:
        address = zotero.url
        code, out, err = run(capsys, "export", "--to", "zotero", "--zotero-url", address, "--data-dir", str(store_dir))
    assert code == 1 and out == "" and err.count("\n") == 1 and "(500)" in err


@pytest.mark.parametrize("extra", [["-o", "x.ris"], ["--format", "ris"], ["--reviews"]])
def test_export_to_zotero_refuses_a_file_option(
    store_dir: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    code, _, err = run(capsys, "export", "--to", "zotero", *extra, "--data-dir", str(store_dir))
    assert code == 2 and "takes no" in err


def test_export_to_zotero_with_no_match_sends_nothing(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ZoteroStandIn() as zotero:
        code, _, err = run(capsys, "export", "zzzqqqxxnothing", "--to", "zotero", "--zotero-url", zotero.url,
                           "--data-dir", str(store_dir))  # fmt: skip
    assert code == 1 and "nothing sent to Zotero" in err and zotero.pings == 0


@pytest.mark.parametrize(
    ("value", "expected", "refused"),
    [
        ("http://localhost:23120", "http://localhost:23120", False),
        ("ftp://127.0.0.1:23119", "http://127.0.0.1:23119", True),
        (23119, "http://127.0.0.1:23119", True),
    ],
)
def test_the_zotero_address_setting_is_checked(value: object, expected: str, refused: bool) -> None:
    from paperdeck.store.settings import Settings

    settings, problems = Settings.checked({"zotero_url": value})
    assert settings.zotero_url == expected
    assert bool(problems) == refused and all("zotero_url" in problem for problem in problems)
