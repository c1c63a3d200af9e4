"""Intent: the words of what the agent said it is looking for, for summarisers that take terms.

``intent_terms(intent)`` gives the intent's words with identifiers split (``getUserById`` gives
"user by id"), lowercased, lightly stemmed ("timeouts" gives ``timeout``), stopwords out: row
sets and trees put the rows and names holding them first. The passages that match the intent
come from ``context_mode.store.payload_passages`` (what a search would show).
"""

from __future__ import annotations

import re

from context_mode.identifiers import split_identifiers
from context_mode.words import FUNCTION_WORDS, light_stem

_WORD = re.compile(r"[A-Za-z0-9]+")
# Besides function words, the words of a request that name no content ("show me the line…").
_STOPWORDS = FUNCTION_WORDS | frozenset("i did can should would value show find me my our line lines".split())
MAX_TERMS = 12


def intent_terms(intent: str) -> tuple[str, ...]:
    """The intent's search words, lowercased and stemmed, stopwords out, at most ``MAX_TERMS``."""
    words = [word.lower() for word in _WORD.findall(split_identifiers(intent))]
    stems = [light_stem(word) for word in words if word not in _STOPWORDS and len(word) >= 2]
    return tuple(dict.fromkeys(stems))[:MAX_TERMS]
