"""Finding a name in a short list as it is typed (the author picker's filter, ``a``): every name
with a word starting with each typed word, else the names rapidfuzz finds near it (a typo in a word or in
its start), both compared after the one fold of search (:func:`~paperdeck.text.fold.fold_text`:
case and accents ignored: ``muller`` finds ``Hans Müller``)."""

from __future__ import annotations

from collections.abc import Sequence

from paperdeck.text.fold import fold_text

#: The ``fuzz.ratio`` each typed word needs with a word of a name (or that word's start) for the
#: name to be found near the typed text (in 0..100).
NEAR_CUTOFF = 75


def names_matching(typed: str, names: Sequence[str]) -> list[int]:
    """The indexes of ``names`` that ``typed`` finds: all of them, in order, for blank text; else
    the names with a word starting with each typed word (in order of the list: ``an le`` finds
    ``Ann Lee``, not ``Hans Müller``); when none has, those whose every typed word is within
    :data:`NEAR_CUTOFF` (``fuzz.ratio``) of one of the name's words or its start (best first, ties
    in order of the list)."""
    words = fold_text(typed).split()
    if not words:
        return list(range(len(names)))
    folded = [fold_text(name) for name in names]
    held = [
        n for n, name in enumerate(folded) if all(any(part.startswith(word) for part in name.split()) for word in words)
    ]
    if held:
        return held
    from rapidfuzz import fuzz

    near = []
    for n, name in enumerate(folded):
        parts = name.split()
        score = min(
            max(max(fuzz.ratio(word, part), fuzz.ratio(word, part[: len(word)])) for part in parts)
            for word in words
        ) if parts else 0.0  # fmt: skip
        if score >= NEAR_CUTOFF:
            near.append((-score, n))
    return [n for _, n in sorted(near)]


__all__ = ["NEAR_CUTOFF", "names_matching"]
