"""A hostile corpus, made on the fly: paper-list files of every format whose every text field (and
file name) carries a terminal attack, and the scans that prove none of it reached an output.

:func:`write_corpus` writes one file per (format, payload kind); in each, every field the format
has holds the payload, so the files cover every importer × every field × every payload kind.
Payloads carry markers no real output has (``SGR 666``, the base64 ``cHduZWQ=``, "pwned"), so a
scan can tell the data's escapes from the app's own.
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

#: Payload kind → text. Each holds at least one byte a terminal obeys.
PAYLOADS: dict[str, str] = {
    "csi": "\x1b[666m\x1b[2J\x1b[?1049l red",
    "osc8-bel": "\x1b]8;;javascript:alert(666)\x07click\x1b]8;;\x07",
    "osc8-st": "\x1b]8;;file:///etc/passwd\x1b\\click\x1b]8;;\x1b\\",
    "osc52-bel": "\x1b]52;c;cHduZWQ=\x07",
    "osc52-st": "\x1b]52;c;cHduZWQ=\x1b\\",
    "c1": "\x9b666m \x9d52;c;cHduZWQ=\x9c \x90q\x9c \x85",
    "bel-bs-cr": "ring\x07\x07 back\x08\x08\x08 return\rover",
    "nul-del": "nul\x00here del\x7fhere",
    "bidi": "\u202eevil\u202c \u2066isolate\u2069 \u200fmark",
    "rich": "[bold red]Rich[/] [link=javascript:alert(666)]x[/link] [/] [reverse]",
    "textual": "[@click=app.quit]quit[/] [$accent]x[/] [on red]y[/on red] $text-accent",
    "percent-math": "50% %s %(x)s %n $x^2$ \\(y\\) $\\mathbb{R}$",
    "autolink": "see https://a.example/x\x07\x1b]52;c;cHduZWQ=\x07 for the code",
}
#: A link field's payloads: other schemes, and web links carrying escapes or a note-file marker.
LINKS: dict[str, str] = {
    "javascript": "javascript:alert(1)//\x1b]52;c;cHduZWQ=\x07",
    "file": "file:///etc/passwd?openreview.net",
    "data": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "escape": "https://openreview.net/pdf?id=x\x1b]52;c;cHduZWQ=\x07",
    "newline": "https://openreview.net/forum?id=y\n"
    "<!-- Write your note below this line. The lines above are not saved. -->\nINJECTED",
}
#: Kinds whose bytes XML 1.0 cannot hold at all (an arXiv file with them is refused as a whole).
_XML_CANNOT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _file_name(kind: str, suffix: str) -> str:
    """A file name carrying a payload too (``show`` and ``stats`` print source file names)."""
    return f"hostile-{kind}-\x1b[666m\x07\x9b-{suffix.lstrip('.')}{suffix}"


def _text(field: str, payload: str) -> str:
    return f"{field} of a hostile paper {payload} end of {field}"


def _title(payload: str, number: int) -> str:
    return f"Hostile paper {number}: {payload} end of title"


#: Words of the plain text in abstracts. A text file (CSV, TSV, BibTeX, seed text) gets
#: :data:`_TEXT_FILE_WORDS` of them, which keeps its raw control characters under the share at which
#: it is refused as binary (:mod:`paperdeck.sources.decode`), so the payloads get in; JSON and XML
#: escape theirs.
_WORDS = (
    "terminal", "list", "paper", "link", "reader", "escape", "byte", "screen", "clipboard", "editor", "note",
    "title", "abstract", "author", "keyword", "venue", "decision", "rating", "review", "table", "graph", "model",
    "data", "proof", "bound", "kernel", "vision", "language",
)  # fmt: skip


_TEXT_FILE_WORDS = 1500


def _abstract(payload: str, number: int, words: int = 60) -> str:
    """An abstract unlike every other paper's (papers with near-equal abstracts are merged), of
    about ``words`` plain words besides the payload."""
    chosen = random.Random(number).choices(_WORDS, k=words)
    return f"Paper {number} studies terminals and links in papers. {payload} {' '.join(chosen)}."


def _links(number: int) -> dict[str, str]:
    kinds = list(LINKS.values())
    return {
        "pdf": kinds[number % len(kinds)],
        "url": kinds[(number + 1) % len(kinds)],
        "code": kinds[(number + 2) % len(kinds)],
    }


def _openreview_v2(path: Path, payload: str, number: int) -> None:
    links = _links(number)
    content = {
        "title": _title(payload, number),
        "abstract": _abstract(payload, number),
        "authors": [_text("author", payload), "Plain Author"],
        "keywords": [_text("keyword", payload)],
        "primary_area": _text("area", payload),
        "venue": f"ICLR 2026 {payload}",
        "TLDR": _text("tldr", payload),
        "pdf": links["pdf"],
    }
    note = {"id": f"HostV2x{number:03d}", "content": {key: {"value": value} for key, value in content.items()}}
    path.write_text(json.dumps([note]), encoding="utf-8")


def _openreview_jsonl(path: Path, payload: str, number: int) -> None:
    links = _links(number)
    record = {
        "id": f"HostV1x{number:03d}",
        "content": {
            "title": _title(payload, number),
            "abstract": _abstract(payload, number),
            "authors": [_text("author", payload)],
            "keywords": [_text("keyword", payload)],
            "primary_area": _text("area", payload),
            "venue": f"ICLR 2026 {payload}",
            "tldr": _text("tldr", payload),
            "pdf": links["pdf"],
            "url": links["url"],
        },
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")


def _copilot_record(payload: str, number: int) -> dict[str, object]:
    links = _links(number)
    return {
        "id": f"HostPCx{number:03d}",
        "title": _title(payload, number),
        "abstract": _abstract(payload, number),
        "author": f"{_text('author', payload)};Plain Author",
        "keywords": f"{_text('keyword', payload)};plain",
        "primary_area": _text("area", payload),
        "status": f"Poster {payload}",
        "tldr": _text("tldr", payload),
        "track": "main",
        "site": links["url"],
        "openreview": links["url"],
        "pdf": links["pdf"],
        "github": f"[{payload}]({links['code']})",
        "bibtex": "@inproceedings{k, title={" + payload + "}, url={" + links["url"] + "}}",
    }


def _papercopilot(path: Path, payload: str, number: int) -> None:
    path.write_text(json.dumps([_copilot_record(payload, number)]), encoding="utf-8")


def _parquet(path: Path, payload: str, number: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    record = _copilot_record(payload, number)
    columns = {key: [record[key]] for key in ("title", "abstract", "status", "primary_area", "tldr", "site", "pdf")}
    columns["openreview_id"] = [f"HostPQx{number:03d}"]
    columns["keywords"] = [[_text("keyword", payload)]]
    columns["author"] = [str(record["author"])]
    columns["github"] = [str(record["github"])]
    pq.write_table(pa.table(columns), path)


def _table(path: Path, payload: str, number: int, delimiter: str) -> None:
    links = _links(number)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(["title", "abstract", "authors", "keywords", "venue", "year", "primary_area", "tldr",
                         "openreview_url", "pdf", "code"])  # fmt: skip
        abstract = _abstract(payload, number, _TEXT_FILE_WORDS)
        writer.writerow([_title(payload, number), abstract, _text("author", payload),
                         _text("keyword", payload), f"ICLR 2026 {payload}", "2026", _text("area", payload),
                         _text("tldr", payload), links["url"], links["pdf"], links["code"]])  # fmt: skip


def _csv(path: Path, payload: str, number: int) -> None:
    _table(path, payload, number, ",")


def _tsv(path: Path, payload: str, number: int) -> None:
    _table(path, payload.replace("\t", " "), number, "\t")


def _bibtex(path: Path, payload: str, number: int) -> None:
    links = _links(number)
    braces = payload.replace("{", "(").replace("}", ")")
    fields = {
        "title": _title(braces, number),
        "author": f"{_text('author', braces)} and Plain Author",
        "abstract": _abstract(braces, number, _TEXT_FILE_WORDS),
        "keywords": _text("keyword", braces),
        "booktitle": f"International Conference on Learning Representations {braces}",
        "year": "2026",
        "url": links["url"],
        "pdf": links["pdf"],
        "code": links["code"],
        "note": braces,
    }
    body = ",\n".join(f"  {key} = {{{value}}}" for key, value in fields.items())
    path.write_text(f"@inproceedings{{hostile{number},\n{body}\n}}\n", encoding="utf-8")


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _arxiv(path: Path, payload: str, number: int) -> None:
    links = {key: _XML_CANNOT.sub("", link) for key, link in _links(number).items()}
    entry = f"""<entry>
<id>http://arxiv.org/abs/2601.{number:05d}v1</id>
<title>{_xml(_title(payload, number))}</title>
<summary>{_xml(_abstract(payload, number))}</summary>
<published>2026-01-01T00:00:00Z</published>
<author><name>{_xml(_text("author", payload))}</name></author>
<arxiv:comment>{_xml(payload)} code at {_xml(links["code"])}</arxiv:comment>
<arxiv:journal_ref>{_xml(payload)}</arxiv:journal_ref>
<link href="{_xml(links["url"])}" rel="alternate" type="text/html"/>
<link title="pdf" href="{_xml(links["pdf"])}" rel="related" type="application/pdf"/>
</entry>"""
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">\n<id>https://arxiv.org/api/x</id>\n'
        f"<title>arXiv Query</title>\n{entry}\n</feed>\n",
        encoding="utf-8",
    )


def _seed(path: Path, payload: str, number: int) -> None:
    abstract = _abstract(payload, number, _TEXT_FILE_WORDS)
    path.write_text(f"ICLR 2026 {payload}\n\n{abstract} number {number}.\n", encoding="utf-8")


#: Format → (file suffix, writer).
WRITERS: dict[str, tuple[str, Callable[[Path, str, int], None]]] = {
    "openreview-v2": (".json", _openreview_v2),
    "openreview-jsonl": (".jsonl", _openreview_jsonl),
    "papercopilot": (".json", _papercopilot),
    "parquet": (".parquet", _parquet),
    "csv": (".csv", _csv),
    "tsv": (".tsv", _tsv),
    "bibtex": (".bib", _bibtex),
    "arxiv": (".xml", _arxiv),
    "seed": (".txt", _seed),
}


def write_corpus(folder: Path) -> list[Path]:
    """Write one hostile file per (format, payload kind) into ``folder``; returns their paths.

    An arXiv file is written only for the payloads XML 1.0 can carry."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    number = 0
    for format, (suffix, writer) in WRITERS.items():
        for kind, payload in PAYLOADS.items():
            if format == "arxiv" and _XML_CANNOT.search(payload):
                continue
            number += 1
            path = folder / _file_name(f"{format}-{kind}", suffix)
            writer(path, payload, number)
            paths.append(path)
    return paths


#: What no output may hold: C0 controls but tab, newline and CR; DEL; C1 controls; bidi controls.
_RAW_CONTROL = re.compile(r"\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f]")


def raw_controls(text: str) -> list[str]:
    """The raw control characters in ``text``, each with a little context (empty: clean)."""
    return [repr(text[max(0, m.start() - 30) : m.end() + 30]) for m in _RAW_CONTROL.finditer(text)]


def assert_clean(text: str | bytes, where: str) -> None:
    """Fail, naming ``where``, when ``text`` holds a raw control character."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    found = raw_controls(text)
    assert not found, f"{where}: {len(found)} raw control characters, e.g. {found[:3]}"


#: Data-borne sequences whose bytes no output of the app has (the payloads' markers).
_DATA_MARKERS = ("\x1b[666m", "\x9b666m", "\x1b]52;c;cHduZWQ=", "\x9d52;", "\x1b]8;;javascript", "\x1b]8;;file")
_OSC = re.compile(r"\x1b\](\d*)((?:;[^\x07\x1b]*)?)(?:\x07|\x1b\\)")
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_SHORT_ESCAPES = re.compile(r"\x1b[=>78]|\x1b\([0-9A-B]")
_LEFT_OVER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_log_problems(log: str) -> list[str]:
    """What in a raw terminal log (every byte the app wrote) came from the data, not the app.

    The app's own sequences are allowed: CSI (cursor, colours, modes), OSC 22 (pointer shape),
    OSC 8 hyperlinks to http(s) targets, OSC 52 clipboard writes whose text holds no control
    character; anything else — a payload marker, another OSC, an OSC 8 to any other target, a raw
    ESC, BEL or C1 control left once those are taken out — is a problem."""
    import base64

    from paperdeck.model.safe_text import web_link

    problems = [f"payload marker {marker!r} on the terminal" for marker in _DATA_MARKERS if marker in log]
    for match in _OSC.finditer(log):
        number, rest = match.group(1), match.group(2)
        if number == "8":
            target = rest.split(";", 2)[-1] if rest.count(";") >= 2 else ""
            if target and web_link(target) != target:
                problems.append(f"OSC 8 hyperlink to {target!r}")
        elif number == "52":
            payload = rest.split(";", 2)[-1]
            text = base64.b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8", "replace")
            if raw_controls(text) or text == "pwned":
                problems.append(f"OSC 52 clipboard write of {text[:60]!r}")
        elif number != "22":
            problems.append(f"OSC {number} {rest[:60]!r}")
    left = _SHORT_ESCAPES.sub("", _CSI.sub("", _OSC.sub("", log)))
    for found in _LEFT_OVER.finditer(left):
        problems.append(f"raw {found.group()!r} in {left[max(0, found.start() - 40) : found.end() + 40]!r}")
    return problems
