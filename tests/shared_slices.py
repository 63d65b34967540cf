"""Small slices of the committed fixtures (``tests/data/``, cut from the real files), made at test time.

Each slice keeps the records of a few papers that several files share, so that importing the
slices in any order exercises every kind of id change: a seed abstract (``abs:``) merged into its
``openreview:`` record, Paper Copilot and OpenReview BibTeX entries for the same ICLR 2018 paper, a
CSV title id (``title:``) meeting a forum id, Parquet decisions joined on the forum id.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import FIXTURES, SEEDS, submission_parts

RT_PARTS = submission_parts()
PARQUET = FIXTURES / "iclr2026_accepted_papercopilot-derived.parquet"
SAFETY = FIXTURES / "iclr2026_accepted_safety-subset_openreview-flat.jsonl"
OPTIMISATION_CSV = FIXTURES / "iclr2026_accepted_optimization-area_with-llm-notes.csv"
PC2018 = FIXTURES / "papercopilot_iclr2018.json"
BIB2018 = FIXTURES / "iclr2018_openreview-bibtex_from-papercopilot.bib"
SMART2018 = FIXTURES / "iclr2018_smart-scholar.bib"
AUTHOR_ROWS = FIXTURES / "icml-nips-iclr_author-rows_2019-08.csv"
ICLR2025_CSV = FIXTURES / "iclr2025_title_authors_affiliations_decision.csv"
TSV2023 = FIXTURES / "iclr2023_submissions_number_title.tsv"

#: The forum ids of the ICLR 2026 records some bundled seed abstracts merge into (measured once
#: on the whole dump; the seed files are committed, so these stay right; tests/data/cut.py keeps
#: their records).
SEED_FORUMS = ("vAU1fo1zRV", "v2oYZJ7Exo", "uqT7TAhwrm", "upsp6XeJpN", "uW9FoHBuoQ", "uU96luC4dp")


@dataclass(frozen=True)
class Slices:
    """The slice files: ``iclr2026`` and ``iclr2018`` are the files that share papers within each
    year; ``others`` hold papers no other file has (title ids, numbered ids)."""

    iclr2026: tuple[Path, ...]
    iclr2018: tuple[Path, ...]
    others: tuple[Path, ...]

    @property
    def all(self) -> tuple[Path, ...]:
        return self.iclr2026 + self.iclr2018 + self.others


def _forum(text: str) -> str:
    found = re.search(r"id=([A-Za-z0-9_-]+)", text)
    return found.group(1) if found else ""


def cut(folder: Path, extra_2026: int = 4, papers_2018: int = 10) -> Slices:
    """Write the slices into ``folder``: the seeds, plus per file only the records of a few
    shared papers (``extra_2026`` ICLR 2026 papers besides the seeds' own, ``papers_2018``
    ICLR 2018 ones of every decision), plus a few rows of files that share nothing."""
    folder.mkdir(parents=True, exist_ok=True)
    import pyarrow.parquet as pq

    table = pq.read_table(PARQUET)
    accepted = table.column("openreview_id").to_pylist()
    # The seeds' records, then accepted papers the safety subset and the CSV also hold.
    safety_lines = SAFETY.read_text("utf-8").splitlines()
    safety_ids = [json.loads(line)["id"] for line in safety_lines]
    raw_csv = OPTIMISATION_CSV.read_text("utf-8-sig")
    csv_rows = list(csv.reader(io.StringIO(raw_csv)))
    csv_ids = [_forum(row[0]) for row in csv_rows[1:]]
    shared = [pid for pid in safety_ids if pid in set(accepted)][: extra_2026 // 2]
    shared += [pid for pid in csv_ids if pid in set(accepted) and pid not in shared][: extra_2026 - len(shared)]
    wanted = set(SEED_FORUMS) | set(shared)

    seeds = folder / "seeds.txt"
    seed_text = (SEEDS / "000_df605c9a2625d23d.txt").read_text("utf-8")
    seeds.write_text(seed_text, "utf-8")

    rt = folder / "rt_slice.jsonl"
    lines = []
    for part in RT_PARTS:
        with part.open("rb") as handle:
            for raw in handle:
                head = raw[:40].decode("utf-8", "replace")
                found = re.match(r'\{"id": "([^"]+)"', head)
                if found and found.group(1) in wanted:
                    lines.append(raw.decode("utf-8").rstrip("\n"))
    rt.write_text("\n".join(lines) + "\n", "utf-8")

    parquet = folder / "decisions_slice.parquet"
    keep = [i for i, pid in enumerate(accepted) if pid in wanted]
    pq.write_table(table.take(keep), parquet)

    safety = folder / "safety_slice.jsonl"
    kept = [line for line, pid in zip(safety_lines, safety_ids, strict=True) if pid in wanted]
    safety.write_text("\n".join(kept) + "\n", "utf-8")

    optimisation = folder / "optimisation_slice.csv"
    with optimisation.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(csv_rows[0])
        writer.writerows(row for row, pid in zip(csv_rows[1:], csv_ids, strict=True) if pid in wanted)

    # ICLR 2018: papers of every status, with their entries in both BibTeX files and the author rows.
    records = json.loads(PC2018.read_text("utf-8"))
    by_status: dict[str, list[dict[str, object]]] = {}
    for record in records:
        if record.get("bibtex"):
            by_status.setdefault(str(record["status"]), []).append(record)
    chosen: list[dict[str, object]] = []
    while len(chosen) < papers_2018 and any(by_status.values()):
        for group in by_status.values():
            if group and len(chosen) < papers_2018:
                chosen.append(group.pop(0))
    ids_2018 = {str(record["id"]) for record in chosen}
    pc = folder / "papercopilot_slice.json"
    pc.write_text(json.dumps(chosen, ensure_ascii=False), "utf-8")

    def entries(path: Path) -> list[str]:
        return [e for e in re.split(r"\n(?=@)", path.read_text("utf-8")) if e.strip()]

    bib = folder / "openreview_slice.bib"
    bib.write_text("\n\n".join(e for e in entries(BIB2018) if _forum(e) in ids_2018) + "\n", "utf-8")
    smart = folder / "smart_scholar_slice.bib"
    smart.write_text("\n".join(e for e in entries(SMART2018) if _forum(e) in ids_2018) + "\n", "utf-8")
    titles = {" ".join(str(record["title"]).casefold().split()) for record in chosen}
    rows = folder / "author_rows_slice.csv"
    with AUTHOR_ROWS.open(encoding="utf-8", newline="") as source, rows.open("w", encoding="utf-8", newline="") as out:
        reader, writer = csv.reader(source), csv.writer(out)
        writer.writerow(next(reader))
        writer.writerows(
            row
            for row in reader
            if row[0] == "ICLR" and row[1] == "2018" and " ".join(row[2].casefold().split()) in titles
        )

    iclr2025 = folder / "iclr2025_slice.csv"
    iclr2025.write_text("".join(ICLR2025_CSV.read_text("utf-8").splitlines(keepends=True)[:6]), "utf-8")
    tsv = folder / "iclr2023_slice.tsv"
    tsv.write_text("".join(TSV2023.read_text("utf-8").splitlines(keepends=True)[:6]), "utf-8")
    return Slices(
        (seeds, rt, parquet, safety, optimisation),
        (pc, bib, smart, rows),
        (iclr2025, tsv),
    )
