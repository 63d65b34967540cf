"""Pasted ids and links to papers as the query language reads them: a word that is one is an
``id:`` term (:func:`paperdeck.search.query.parse_query`). Apart from the fields
(:mod:`paperdeck.search.query_fields`), whose import a query of words alone does without.
"""

from __future__ import annotations

import re

#: A pasted link to a paper (an OpenReview forum or PDF, an arXiv abstract or PDF, a DOI), with or
#: without its scheme, or a canonical id (``openreview:ID``, ``arxiv:ID``, ``doi:…``).
_LINK = re.compile(
    r"(?:https?://)?(?:www\.)?(?:openreview\.net/\S*[?&]id=|arxiv\.org/(?:abs|pdf)/|(?:dx\.)?doi\.org/)\S+"
    r"|(?:openreview|arxiv|doi):\S+",
    re.IGNORECASE,
)
#: A bare OpenReview forum id as pasted (``ukGxWd2aDG``): 9 to 11 of its characters (10 since 2023)
#: with a digit, an upper- and a lower-case letter (so that no plain word is read as one).
_BARE_ID = re.compile(r"(?=\S*\d)(?=\S*[A-Z])(?=\S*[a-z])[A-Za-z0-9_-]{9,11}")


def pasted_id(text: str) -> str:
    """``text`` when it is a pasted link to a paper or a canonical id (:data:`_LINK`), read as an
    ``id:`` term; ``""`` otherwise."""
    return text if _LINK.fullmatch(text) else ""


def bare_id(text: str) -> bool:
    """Whether ``text`` looks like a bare OpenReview forum id (:data:`_BARE_ID`): read as that id
    or as the word (``id:X OR X``)."""
    return _BARE_ID.fullmatch(text) is not None
