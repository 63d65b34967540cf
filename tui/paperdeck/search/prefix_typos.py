"""A short query word that is a typo of a word's start: ``difu`` for ``diffu…`` (diffusion).

The typo matching of :meth:`~paperdeck.search.vocabulary.Vocabulary.expand` compares whole
words: a few typed letters are too far from any whole word (``difu``/``diffusion``: 62), and
being the start of none, they matched nothing. A word of :data:`PREFIX_TYPO_LENGTHS` letters that
matches nothing else is therefore tried as one typo away from the start of a vocabulary word:
each of its one-edit variants that keep the typed letters' number or add one (a letter changed,
two neighbours swapped, a letter left out: ``diffu``) is looked up as a prefix (two bisections).
A letter typed too many is not undone: the start that leaves would be shorter than typed and
match far more than was meant.

The work is bounded: at most ``(2 × length + 1) × letters`` look-ups (:func:`variants`), letters
being those the vocabulary's words start or go on with (about 40). A word found otherwise never
gets here, so no ranking of a query that finds something changes; but a word that starts only
rare words, one a typo of a far more common word that starts with one of its variants (``difu``,
``difussion``, ``diffusion``: :func:`start_quality`), gets that start's words after its own
(:meth:`~paperdeck.search.vocabulary.Vocabulary.expand`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence

from paperdeck.search.scores import FUZZY_QUALITY, PREFIX_QUALITY, typo_near

#: The lengths of a query word tried as a typo of a word's start: shorter ones have too many
#: neighbours; longer ones are close enough to whole words for the typo matching.
PREFIX_TYPO_LENGTHS = range(4, 9)
#: A typo of a start counts as a typo (:data:`FUZZY_QUALITY`) of a prefix (:data:`PREFIX_QUALITY`),
#: times how near the typed word is to the start it stands for (``fuzz.ratio``: a letter left
#: out nearer than one changed), so below every whole-word typo and every exact or prefix match.
_QUALITY = FUZZY_QUALITY * PREFIX_QUALITY


def variants(word: str, letters: str) -> Iterator[tuple[str, float]]:
    """The starts ``word`` may be a typo of, each with its ``fuzz.ratio`` to ``word`` (in 0..1):
    a letter left out (one letter longer), a letter changed or two neighbours swapped (as
    long); not ``word`` itself, each variant once."""
    size = len(word)
    left_out, changed = 1 - 1 / (2 * size + 1), 1 - 2 / (2 * size)
    seen = {word}
    for at in range(size + 1):
        for letter in letters:
            made = word[:at] + letter + word[at:]
            if made not in seen:
                seen.add(made)
                yield made, left_out
    for at in range(size):
        for letter in letters:
            made = word[:at] + letter + word[at + 1 :]
            if made not in seen:
                seen.add(made)
                yield made, changed
    for at in range(size - 1):
        made = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
        if made not in seen:
            seen.add(made)
            yield made, changed


def start_quality(word: str, start_of: str) -> float | None:
    """The quality of ``start_of`` as a typo of the start ``word`` (as :func:`prefix_typo_bands`
    gives it) when it is one of :func:`variants` of ``word`` (whatever the letters), else ``None``."""
    size = len(word)
    if len(start_of) not in (size, size + 1) or start_of == word or not typo_near(word, start_of):
        return None
    nearness = 1 - 1 / (2 * size + 1) if len(start_of) > size else 1 - 2 / (2 * size)
    return _QUALITY * nearness


def prefix_typo_bands(vocabulary: Sequence[str], word: str, letters: str) -> list[tuple[float, tuple[int, int]]]:
    """The ranges of ``vocabulary`` (sorted) starting with one of :func:`variants` of ``word``,
    each with its quality; none for a word of another length than :data:`PREFIX_TYPO_LENGTHS`.
    The ranges may overlap (``diff`` holds ``diffu``): the search keeps a paper's best."""
    if len(word) not in PREFIX_TYPO_LENGTHS:
        return []
    found = []
    size = len(vocabulary)
    for start_of, nearness in variants(word, letters):
        start = bisect_left(vocabulary, start_of)
        if start < size and vocabulary[start].startswith(start_of):
            end = bisect_left(vocabulary, start_of + "\U0010ffff", start)
            found.append((_QUALITY * nearness, (start, end)))
    return found


__all__ = ["PREFIX_TYPO_LENGTHS", "prefix_typo_bands", "start_quality", "variants"]
