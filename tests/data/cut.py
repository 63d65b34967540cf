"""Cut the test fixtures in this folder from the real files in ``../shared`` (run by hand).

    python tests/data/cut.py [SHARED]     # SHARED: $PAPERDECK_SHARED, else ../shared beside the repo

Every fixture keeps its source file's name and holds a subset of its records, unchanged and in
the source's order (``README.md`` beside this script says what each holds and why). The records
of the same papers are kept together across files — a seed abstract's ICLR 2026 record, the
Parquet rows, the safety subset's authors and the optimisation CSV's rows of the same forum ids,
the ICLR 2018 papers in Paper Copilot's JSON, both BibTeX files and the author rows — so that the
merge tests still see every kind of id change. The ReviewTracker dump and the review parts keep
the head of each part (the first submissions by number) with every reply of those papers, so a
slice of "the first N papers and their reviews" reads as it does on the real files.

Running it again on the same ``shared`` files writes the same bytes.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # run as a script: the repository's tests package
from tests.helpers import SHARED  # noqa: E402  (the one setting: $PAPERDECK_SHARED, default ../shared)

#: Submissions kept from the head of each dump part (part 1's head also feeds the fetch tests'
#: 120-paper server and the statistics slice); every reply of these papers is kept.
HEAD = {1: 125, 2: 35, 3: 35}
#: The ICLR 2026 forum ids that bundled seed abstracts merge into (see tests/shared_slices.py).
SEED_FORUMS = ("vAU1fo1zRV", "v2oYZJ7Exo", "uqT7TAhwrm", "upsp6XeJpN", "uW9FoHBuoQ", "uU96luC4dp")
#: Title words kept for the query tests (``title:lora`` against "exploration").
TITLE_WORDS = {"lora": 6, "exploration": 3}
SAFETY_HEAD = 20
CSV_HEAD = 12
PC2018_HEAD = 40
PC2018_PER_STATUS = 10
OTHER_COPILOT = ("colm2025", "iclr2017", "nips2018", "icml2019", "cvpr2019")
OTHER_COPILOT_HEAD = 8
TABLE_HEAD = 40
#: Files copied whole: small, and every one of their records is asserted on.
WHOLE = (
    "openreview_v2_notes_iclr2026_replies_sample.json",
    "arxiv_atom_2016_classic_au-del_maestro.xml",
    "arxiv_atom_2025-11_electron-proton_10.xml",
    "arxiv_atom_2025-11_empty-result.xml",
    "arxiv_atom_2026_query-testing_100.xml",
)


def shared_root() -> Path:
    return Path(sys.argv[1]) if len(sys.argv) > 1 else SHARED


def _forum(text: str) -> str:
    found = re.search(r"id=([A-Za-z0-9_-]+)", text)
    return found.group(1) if found else ""


def _csv_records(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each CSV record's raw text (quoted newlines and line endings as in the file) and its cells."""
    lines = text.splitlines(keepends=True)
    taken = 0

    def feed() -> Iterator[str]:
        nonlocal taken
        while taken < len(lines):
            taken += 1
            yield lines[taken - 1]

    reader = csv.reader(feed())
    start = 0
    for row in reader:
        yield "".join(lines[start:taken]), row
        start = taken


#: The non-ASCII characters Windows-1252 encodes.
_CP1252_TEXT = frozenset(bytes(range(0x80, 0x100)).decode("cp1252", errors="ignore"))


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"{path.name}: {len(data):,} bytes")


def _gzip(data: bytes) -> bytes:
    """gzip without a time stamp or name in the header, so a re-run writes the same bytes."""
    sink = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=sink, compresslevel=9, mtime=0) as out:
        out.write(data)
    return sink.getvalue()


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def cut(shared: Path) -> None:
    data, reviews = shared / "data", shared / "reviews"
    for name in WHOLE:
        _write(HERE / name, (data / name).read_bytes())

    # --- ICLR 2026: the safety subset and the optimisation CSV choose papers shared with the dump.
    safety_lines = _lines(data / "iclr2026_accepted_safety-subset_openreview-flat.jsonl")
    safety = [json.loads(line) for line in safety_lines]
    keep_safety = set(range(SAFETY_HEAD))
    conditional = [i for i, r in enumerate(safety) if "Conditional" in r["venue"]]
    orals = [i for i, r in enumerate(safety) if r["venue"] == "ICLR 2026 Oral"][:5]
    accented = [i for i, r in enumerate(safety) if any(not name.isascii() for name in r["authors"])]
    keep_safety |= {*conditional, *orals, *accented}
    keep_safety |= {i for i, r in enumerate(safety) if r["id"] == "sWs0cCuM8I"}
    safety_kept = [safety_lines[i] for i in sorted(keep_safety)]
    _write(HERE / "iclr2026_accepted_safety-subset_openreview-flat.jsonl", b"".join(safety_kept))
    safety_ids = {safety[i]["id"] for i in keep_safety}

    optimisation = (data / "iclr2026_accepted_optimization-area_with-llm-notes.csv").read_bytes()
    bom = optimisation.startswith(b"\xef\xbb\xbf")
    records = list(_csv_records(optimisation.decode("utf-8-sig")))
    header, rows = records[0], records[1:]
    cjk = [i for i, (raw, _) in enumerate(rows) if re.search(r"[\u4e00-\u9fff]", raw)][:3]
    multiline = [i for i, (raw, _) in enumerate(rows) if raw.count("\n") > 1][:3]
    keep_rows = sorted({*range(CSV_HEAD), *cjk, *multiline})
    text = header[0] + "".join(rows[i][0] for i in keep_rows)
    _write(
        HERE / "iclr2026_accepted_optimization-area_with-llm-notes.csv",
        (b"\xef\xbb\xbf" if bom else b"") + text.encode(),
    )
    csv_ids = {_forum(rows[i][1][0]) for i in keep_rows}

    # --- the dump: each part's head, plus every paper another fixture holds or a test names.
    sample = json.loads((data / "openreview_v2_notes_iclr2026_replies_sample.json").read_bytes())
    wanted = {*SEED_FORUMS, *safety_ids, *csv_ids, *(note["forum"] for note in sample), "ukGxWd2aDG"}
    found_words = dict.fromkeys(TITLE_WORDS, 0)
    dump_ids: set[str] = set()
    heads: dict[int, set[str]] = {}
    for number in (1, 2, 3):
        name = f"iclr2026_submissions_reviewtracker.part{number}of3.jsonl"
        kept = []
        heads[number] = set()
        for position, line in enumerate(_lines(data / name)):
            record = json.loads(line)
            title = record["content"]["title"].casefold()
            word = next((w for w in TITLE_WORDS if w in title and found_words[w] < TITLE_WORDS[w]), None)
            if position < HEAD[number]:
                heads[number].add(record["id"])
            elif record["id"] not in wanted and word is None:
                continue
            if word is not None:
                found_words[word] += 1
            kept.append(line)
            dump_ids.add(record["id"])
        _write(HERE / name, b"".join(kept))

    # --- every reply of each head's papers (the parts are grouped by paper in the dump's order).
    for number in (1, 2, 3):
        name = f"iclr2026_reviews_reviewtracker.part{number}of3.jsonl.gz"
        with gzip.open(reviews / name, "rb") as handle:
            notes = []
            for line in handle:
                forum = json.loads(line)["forum"]
                if forum in heads[number]:
                    notes.append(line)
                elif notes:
                    break
        _write(HERE / name, _gzip(b"".join(notes)))

    table = pq.read_table(data / "iclr2026_accepted_papercopilot-derived.parquet")
    everything = sorted(dump_ids | safety_ids | csv_ids)
    table = table.filter(pa.compute.is_in(table["openreview_id"], value_set=pa.array(everything)))
    sink = io.BytesIO()
    pq.write_table(table, sink)
    _write(HERE / "iclr2026_accepted_papercopilot-derived.parquet", sink.getvalue())

    # --- ICLR 2018: the head of Paper Copilot's list and the first papers of every status.
    pc_text = (data / "papercopilot_iclr2018.json").read_text("utf-8")
    pc = json.loads(pc_text)
    keep_pc = set(range(PC2018_HEAD))
    per_status: dict[str, int] = {}
    for position, record in enumerate(pc):
        if record.get("bibtex") and per_status.get(record["status"], 0) < PC2018_PER_STATUS:
            per_status[record["status"]] = per_status.get(record["status"], 0) + 1
            keep_pc.add(position)
    keep_pc |= {i for i, r in enumerate(pc) if r["id"] == "B12Js_yRb"}
    chosen = [pc[i] for i in sorted(keep_pc)]
    _write(HERE / "papercopilot_iclr2018.json", (json.dumps(chosen, ensure_ascii=False, indent=4) + "\n").encode())
    ids_2018 = {r["id"] for r in chosen}
    titles_2018 = {" ".join(r["title"].casefold().split()) for r in chosen}

    def entries(path: Path) -> list[str]:
        return [e for e in re.split(r"\n(?=@)", path.read_text("utf-8")) if e.strip()]

    def kept_entries(path: Path, also: Iterable[str], each: int = 4) -> list[str]:
        """The entries of the chosen papers, and up to ``each`` entries holding each of ``also``."""
        taken = dict.fromkeys(also, 0)
        kept = []
        for entry in entries(path):
            words = [word for word in taken if word in entry and taken[word] < each]
            if _forum(entry) in ids_2018 or words:
                kept.append(entry)
                for word in words:
                    taken[word] += 1
        return kept

    repeated = ("zhang2018learning,", "sharma2018learning,", "author={Anonymous}", "2018-ICLR-Zhang-Learning,")
    bib = kept_entries(data / "iclr2018_openreview-bibtex_from-papercopilot.bib", repeated)
    _write(HERE / "iclr2018_openreview-bibtex_from-papercopilot.bib", ("\n".join(bib) + "\n").encode())
    smart = kept_entries(data / "iclr2018_smart-scholar.bib", (*repeated, "booktitle={ICLRWorkshop}"))
    _write(HERE / "iclr2018_smart-scholar.bib", ("\n".join(smart) + "\n").encode())

    # --- ICLR 2018's withdrawn papers that OpenReview moved to a new forum: Paper Copilot's record
    # has the new forum's id, its BibTeX (the .bib's entry) the first one. The first two such
    # records with ratings and B12Js_yRb (one id in both), each with its own .bib entry, in the sources' order.
    moved = [r for r in pc if r["status"] == "Withdraw" and r["rating"] and r.get("bibtex")]
    moved = [r for r in moved if _forum(r["bibtex"]) != r["id"]][:2]
    reposts = [r for r in pc if r in moved or r["id"] == "B12Js_yRb"]
    _write(HERE / "iclr2018_withdrawn-reposts_papercopilot.json",
           (json.dumps(reposts, ensure_ascii=False, indent=4) + "\n").encode())  # fmt: skip
    cited = {_forum(r["bibtex"]) for r in reposts}
    moved_bib = [e for e in entries(data / "iclr2018_openreview-bibtex_from-papercopilot.bib") if _forum(e) in cited]
    _write(HERE / "iclr2018_withdrawn-reposts.bib", ("\n".join(moved_bib) + "\n").encode())

    rows_text = (data / "icml-nips-iclr_author-rows_2019-08.csv").read_text("utf-8")
    author_rows = list(_csv_records(rows_text))
    firsts: dict[tuple[str, str], int] = {}
    kept_rows = [author_rows[0][0]]
    for raw, row in author_rows[1:]:
        key = (row[0], row[1])
        title = " ".join(row[2].casefold().split())
        mine = row[0] == "ICLR" and row[1] == "2018" and title in titles_2018
        if mine or firsts.get(key, 0) < 8 or "Ph.D." in raw or "LAM" in raw:
            firsts[key] = firsts.get(key, 0) + 1
            kept_rows.append(raw)
    _write(HERE / "icml-nips-iclr_author-rows_2019-08.csv", "".join(kept_rows).encode())

    iclr2025 = list(_csv_records((data / "iclr2025_title_authors_affiliations_decision.csv").read_text("utf-8")))
    by_decision: dict[str, int] = {}
    kept_2025 = [iclr2025[0][0]]
    for position, (raw, row) in enumerate(iclr2025[1:]):
        decision = row[3] if len(row) > 3 else ""
        if position < TABLE_HEAD or by_decision.get(decision, 0) < 3 or row[0] == "111":
            by_decision[decision] = by_decision.get(decision, 0) + 1
            kept_2025.append(raw)
    _write(HERE / "iclr2025_title_authors_affiliations_decision.csv", "".join(kept_2025).encode())
    # As Excel on a European Windows saves it ("CSV (semicolon)"): Windows-1252, ";", CRLF. The
    # first 5 rows with accented letters, and the first 3 with a dash or a curly quote (Windows-1252's own).
    excel = io.StringIO(newline="")
    writer = csv.writer(excel, delimiter=";", lineterminator="\r\n")
    writer.writerow(iclr2025[0][1])
    accented = punctuated = 0
    for _raw, row in iclr2025[1:]:
        text = "".join(row)
        if text.isascii() or not all(ch.isascii() or ch in _CP1252_TEXT for ch in text):
            continue
        if any(ch in "–—‘’“”" for ch in text) and punctuated < 3:
            punctuated += 1
        elif accented < 5 and not any(ch in "–—‘’“”" for ch in text):
            accented += 1
        else:
            continue
        writer.writerow(row)
    _write(HERE / "iclr2025_title_authors_affiliations_decision_excel-cp1252-semicolon.csv",
           excel.getvalue().encode("cp1252"))  # fmt: skip
    tsv = _lines(data / "iclr2023_submissions_number_title.tsv")
    why = [line for line in tsv if b"Why did the Model Fail" in line]
    _write(HERE / "iclr2023_submissions_number_title.tsv", b"".join(dict.fromkeys([*tsv[: TABLE_HEAD + 1], *why])))

    for venue in OTHER_COPILOT:
        name = f"papercopilot_{venue}.json"
        records = json.loads((data / name).read_bytes())[:OTHER_COPILOT_HEAD]
        _write(HERE / name, (json.dumps(records, ensure_ascii=False, indent=2) + "\n").encode())

    cases = shared / "cases" / "render-abstract.md"
    _write(HERE / "render-abstract.md", cases.read_bytes())
    total = sum(p.stat().st_size for p in HERE.iterdir() if p.is_file())
    print(f"total: {total:,} bytes")


if __name__ == "__main__":
    cut(shared_root())
