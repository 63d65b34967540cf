"""``paperdeck fetch iclr2026:schedule``: the programme from a site (a local stand-in on
127.0.0.1, named by ``--site``), imported as ``paperdeck import`` would; a site that answers no
programme is one line and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.fetch.venues import UnknownSource, parse_source
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.fetch.hostile_server import LocalServer, QuietHandler
from tests.helpers import SAFETY_NAME, fixture, run

PROGRAMME_PATH = "/static/virtual/data/iclr-2026-orals-posters.json"


class ProgrammeSite(LocalServer):
    """Serves the fixture programme at its Miniconf path; anything else is a 404, and ``broken``
    serves a JSON array (no programme) instead."""

    def __init__(self, broken: bool = False) -> None:
        self.requests: list[str] = []
        body = b"[1, 2, 3]" if broken else fixture("iclr-2026-orals-posters.json").read_bytes()
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                outer.requests.append(self.path)
                found = self.path.split("?", 1)[0] == PROGRAMME_PATH
                answer = body if found else b'{"error": "not found"}'
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.serve(Handler)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(SAFETY_NAME)])
    return store.data_dir


def test_the_source_names_the_programme_on_the_conferences_site() -> None:
    source = parse_source("ICLR2026:schedule")
    assert (source.kind, source.site, source.path) == ("schedule", "https://iclr.cc", PROGRAMME_PATH)
    assert source.file_name == "schedule-iclr-2026-orals-posters.json"
    assert parse_source("neurips2025:schedule").path.endswith("/neurips-2025-orals-posters.json")
    with pytest.raises(UnknownSource, match="no programme site known for cvpr"):
        parse_source("cvpr2019:schedule")


def test_fetch_a_programme_from_a_local_site_joins_it_to_the_papers(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ProgrammeSite() as site:
        code, out, err = run(capsys, "--data-dir", str(data_dir), "fetch", "iclr2026:schedule", "--site", site.url,
                             "--json")  # fmt: skip
    assert code == 0, err
    assert site.requests == [PROGRAMME_PATH]
    data = json.loads(out)
    assert data["schedule"]["events"] == 21 and data["schedule"]["papers"] == 20
    assert [row["title"] for row in data["schedule"]["unmatched"]] == ["A Made-Up Paper That No Catalogue Holds"]
    assert data["new"] == 0 and data["papers"] == 47  # no paper made from a programme row
    assert len(Store(data_dir).events_by_paper()) == 20


def test_a_site_answering_no_programme_is_one_line_and_changes_nothing(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ProgrammeSite(broken=True) as site:
        code, out, err = run(capsys, "--data-dir", str(data_dir), "fetch", "iclr2026:schedule", "--site", site.url)
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if "not a programme" in line]
    assert len(lines) == 1 and PROGRAMME_PATH in lines[0]
    assert not (data_dir / "schedule.json").exists()
