"""A four-letter query word's typos found without rapidfuzz (:func:`paperdeck.search.vocabulary.typo_scores`):
only its subsequences and the words holding it as one reach the cutoff, so they are looked for
directly; the words, their scores and their order are rapidfuzz's, and its import waits."""

from __future__ import annotations

import random
import subprocess
import sys

from paperdeck.search.scores import fuzzy_cutoff
from paperdeck.search.vocabulary import Vocabulary, ratio, subsequence_scores, subsequence_typos
from rapidfuzz import fuzz, process


def _vocabulary() -> Vocabulary:
    rng = random.Random(32)
    letters = "reapstlnoé-"
    made = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 7))) for _ in range(6000)}
    made |= {"reap", "rep", "rap", "eap", "reaps", "reaped", "rreap", "arexap", "ream", "erap", "réap"}
    return Vocabulary(sorted(made))


def test_only_four_letter_words_are_found_by_their_subsequences() -> None:
    assert subsequence_scores(4, 80.0) == {3: ratio(4, 3, 3), 4: 100.0, 5: ratio(4, 5, 4), 6: ratio(4, 6, 4)}
    for size in range(5, 16):
        cutoff = fuzzy_cutoff(size)
        assert cutoff is not None and subsequence_scores(size, cutoff) is None, size


def test_the_scores_are_rapidfuzz_ratios() -> None:
    for first, second in [("reap", "rep"), ("reap", "reap"), ("reap", "reaps"), ("reap", "arexap"), ("reap", "ream")]:
        common = 3 if second == "ream" else min(len(first), len(second))
        assert ratio(len(first), len(second), common) == fuzz.ratio(first, second), second


def test_a_four_letter_word_finds_what_rapidfuzz_finds_in_its_order() -> None:
    vocabulary = _vocabulary()
    by_length = subsequence_scores(4, 80.0)
    assert by_length is not None
    queries = sorted({word[:4] for word in vocabulary.words if len(word) >= 4})
    some_found = 0
    for word in queries:
        for candidates in vocabulary.typo_candidates(word):
            expected = [
                (found, score)
                for found, score, _ in process.extract(
                    word, candidates, scorer=fuzz.ratio, score_cutoff=80.0, limit=None
                )
            ]
            assert subsequence_typos(word, candidates, by_length) == expected, word
            some_found += bool(expected)
    assert some_found > 100


_PROBE = """
import sys
from paperdeck.search.vocabulary import Vocabulary

vocabulary = Vocabulary(sorted(["reap", "rep", "reaps", "ream", "reaped"]))
bands = vocabulary.expand("reap").bands
found = sorted(vocabulary.words[n] for _, ranges in bands for start, end in ranges for n in range(start, end))
print("rapidfuzz" in sys.modules, found)
vocabulary.expand("reaps")
print("rapidfuzz" in sys.modules)
"""


def test_a_four_letter_word_imports_no_rapidfuzz() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["False ['reap', 'reaped', 'reaps', 'rep']", "True"], done.stderr
