"""What an import in place (:meth:`paperdeck.store.import_run.ImportRun.import_papers`, through
:meth:`paperdeck.store.catalogue.Catalogue.patch`) changed in the catalogue, kept once it is
committed so that what is built from the catalogue (the search and similarity indexes) can be
updated for those papers alone instead of built again from every paper."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from paperdeck.model.paper import Paper
from paperdeck.model.review_summary import ReviewSummary

#: A catalogue file's ``(size in bytes, mtime in ns)``: :meth:`~paperdeck.store.catalogue.Catalogue.stamp`.
Stamp = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CataloguePatch:
    """A committed change of some papers of the catalogue in place: the catalogue's stamp
    ``before`` and ``after`` it, its ``count`` of papers (the same before and after: no paper was
    added, removed, renamed or moved), and ``papers``: position in catalogue order → (the paper
    before, the paper after), for each paper the change rewrote; ``summaries``: the review
    summaries the import read, by forum id, of the forums in ``forums`` that have one (what
    is built from the catalogue and the reviews reads them from here, not from the reviews
    again, while the reviews are as they were). A review import, which rewrites only the
    papers' scores and decisions (no text the indexes read), records no papers: the saved
    indexes are then stamped anew (the statistics, whose key holds the reviews' stamp, are
    counted again)."""

    before: Stamp
    after: Stamp
    count: int
    papers: Mapping[int, tuple[Paper, Paper]]
    summaries: Mapping[str, ReviewSummary] = field(default_factory=dict)
    forums: frozenset[str] = frozenset()

    def follows(self, before: object, now: object) -> bool:
        """Whether this patch is the whole change from the catalogue stamped ``before`` to the
        one stamped ``now`` (a stamp as a list, as a saved index's header holds it, or a tuple)."""
        if not isinstance(before, list | tuple) or not isinstance(now, list | tuple):
            return False
        return tuple(before) == self.before and tuple(now) == self.after


__all__ = ["CataloguePatch", "Stamp"]
