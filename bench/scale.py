"""Files N times the size of the ICLR 2026 dump and its reviews, for measuring paperdeck at scale.

``scaled_files(n, out_dir)`` writes, for ``n`` ≥ 2, one file per dump part holding the original
submissions and ``n - 1`` copies of them, and per review part the original and one file per copy; ``n == 1`` returns the
original files. A copy ``k`` (1 ≤ k < n) of a submission gets a new OpenReview id (10 characters
of the id alphabet, from a hash of the id and ``k``), a new number (``number + k × 100,000``),
``[k]`` after its title (so no two copies read as one paper) and the abstract of another
submission of the same part (a seeded shuffle: the vocabulary stays the conference's, the texts
differ); a copy of a review gets a new note id, and its ``forum``, ``replyto``, ``signatures``
and ``invitations`` follow its submission's. The decisions Parquet file is used as it is (it
names the original submissions only).

Usage: ``python bench/scale.py N OUT_DIR`` prints the files' paths as a JSON object
``{"dump": [...], "reviews": [...]}``.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from reviews_bench import REVIEW_PARTS, SHARED  # noqa: E402

DUMP = sorted((SHARED / "data").glob("iclr2026_submissions_reviewtracker.part*.jsonl"))
#: Added to a copy's submission number per copy.
NUMBER_STEP = 100_000
_SUBMISSION = re.compile(r"/Submission(\d+)/")


def copy_id(note_id: str, k: int) -> str:
    """The id of copy ``k`` of the note ``note_id``: 10 characters of ``[A-Za-z0-9_-]``."""
    digest = hashlib.blake2b(f"{note_id}/{k}".encode(), digest_size=8).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:10]


def _renumbered(text: str, k: int) -> str:
    return _SUBMISSION.sub(lambda m: f"/Submission{int(m.group(1)) + k * NUMBER_STEP}/", text)


def _scaled_dump(part: Path, n: int, out: Path) -> Path:
    notes = [json.loads(line) for line in part.read_text(encoding="utf-8").splitlines() if line.strip()]
    target = out / part.name
    with target.open("w", encoding="utf-8") as file:
        for note in notes:
            file.write(json.dumps(note) + "\n")
        for k in range(1, n):
            abstracts = [note.get("content", {}).get("abstract") for note in notes]
            random.Random(f"{part.name}/{k}").shuffle(abstracts)
            for note, abstract in zip(notes, abstracts, strict=True):
                copy = json.loads(json.dumps(note))
                copy["id"] = copy_id(note["id"], k)
                if isinstance(copy.get("forum"), str):
                    copy["forum"] = copy["id"]
                if isinstance(copy.get("number"), int):
                    copy["number"] += k * NUMBER_STEP
                content = copy.setdefault("content", {})
                title = content.get("title")
                if isinstance(title, dict) and isinstance(title.get("value"), str):
                    title["value"] += f" [{k}]"
                elif isinstance(title, str):
                    content["title"] = f"{title} [{k}]"
                if abstract is not None:
                    content["abstract"] = abstract
                file.write(json.dumps(copy) + "\n")
    return target


def _scaled_reviews(part: Path, n: int, out: Path) -> list[Path]:
    """The original review part and one file per copy ``k`` beside it (a part holding every copy
    would pass the importer's bound on a decompressed file)."""
    with gzip.open(part, "rt", encoding="utf-8") as source:
        lines = [line for line in source if line.strip()]
    targets = [part]
    for k in range(1, n):
        target = out / part.name.replace(".jsonl.gz", f".copy{k}.jsonl.gz")
        with gzip.open(target, "wt", encoding="utf-8", compresslevel=1) as file:
            for line in lines:
                note = json.loads(line)
                for key in ("id", "forum", "replyto"):
                    if isinstance(note.get(key), str):
                        note[key] = copy_id(note[key], k)
                for key in ("signatures", "invitations", "readers", "writers"):
                    if isinstance(note.get(key), list):
                        note[key] = [_renumbered(v, k) if isinstance(v, str) else v for v in note[key]]
                file.write(json.dumps(note) + "\n")
        targets.append(target)
    return targets


def scaled_files(n: int, out_dir: Path) -> tuple[list[Path], list[Path]]:
    """The dump's and the reviews' files at ``n`` × (see the module docstring), written into
    ``out_dir`` (made if missing) for ``n`` ≥ 2; the originals for ``n == 1``.

    Raises:
        ValueError: ``n`` < 1.
        OSError: a file cannot be read or written.
    """
    if n < 1:
        raise ValueError(f"scale must be at least 1, not {n}")
    if n == 1:
        return list(DUMP), list(REVIEW_PARTS)
    out_dir.mkdir(parents=True, exist_ok=True)
    reviews = [path for part in REVIEW_PARTS for path in _scaled_reviews(part, n, out_dir)]
    return [_scaled_dump(part, n, out_dir) for part in DUMP], reviews


if __name__ == "__main__":
    dump, reviews = scaled_files(int(sys.argv[1]), Path(sys.argv[2]))
    print(json.dumps({"dump": [str(p) for p in dump], "reviews": [str(p) for p in reviews]}))
