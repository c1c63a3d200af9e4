"""Summary of a configuration file that documents itself in comments (``postgresql.conf``,
``redis.conf``, ``ssh_config``, ``vsftpd.conf``, ``pg_hba.conf``).

``shapes.is_commented_config(lines)`` recognises one. ``summarize_config(lines, budget=, terms=)``
keeps, verbatim by line, highest first: the first comment that says something (what the file is);
every setting in force (``max_connections = 100``, ``maxmemory-policy noeviction``, an indented
``    SendEnv LANG LC_*`` under its ``Host *``), in order: what the file sets; the section banners
(``# CONNECTIONS AND AUTHENTICATION``, ``##### INCLUDES #####``, ``# - Memory -``, ``[mysqld]``);
then the settings commented out, which state the defaults (``#port = 5432``, ``# maxmemory
<bytes>``); then the other comments in order. Lines naming one of ``terms`` rank above all but
the first. The outline counts the settings in force, those commented out and the sections.
Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import CONFIG_COMMENT, is_commented_out, is_config_setting
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack, says_something
from context_mode.types import ContentKind

_HEAD = 95.0
_SETTING = 80.0
_BANNER = 70.0
_MATCH = 60.0
_COMMENTED = 40.0
_COMMENT = 10.0
_ORDER = 0.0005
# A section's banner: a comment in capitals (``# FILE LOCATIONS``, ``#### INCLUDES ####``), a named
# rule (``# - Memory -``), or an ini file's ``[section]``.
_BANNER_LINE = re.compile(
    r"\s*[#;]+\s*(?:[-=#*]+\s*)?(?:[A-Z][A-Z0-9 ,/&()'-]{2,60}|- [A-Z][\w ,/&()'-]{1,60} -)"
    r"\s*(?:[-=#*]+\s*)?\Z|\s*\[[\w .\-/\"]{1,80}\]\s*\Z"
)


def summarize_config(lines: Sequence[str], *, budget: int, terms: Sequence[str] = ()) -> Extract:
    """The file's settings in force, its sections, then its defaults (see module doc)."""
    matches = term_matcher(terms)
    picks: list[Pick] = []
    settings = commented = banners = 0
    headed = False
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        rank = index * _ORDER
        if _BANNER_LINE.match(line):
            banners += 1
            priority = _BANNER - rank
        elif is_config_setting(line):
            settings += 1
            priority = _SETTING - rank
        elif is_commented_out(line):
            commented += 1
            priority = _COMMENTED - rank
        elif CONFIG_COMMENT.match(line) and not headed and says_something(line):
            headed = True
            priority = _HEAD  # what the file is, as it says first
        else:
            priority = _COMMENT - rank
        if terms and matches(line):
            priority = max(priority, _MATCH + _SETTING - rank)
        picks.append(Pick(index, index + 1, priority))
    body = pack(lines, picks, budget, gaps="short")
    outline = (
        f"config: {len(lines)} lines, {settings} setting{'' if settings == 1 else 's'} in force, "
        f"{commented} commented out, {banners} section{'' if banners == 1 else 's'}"
    )
    return Extract(text=body, kind=ContentKind.TEXT, outline=outline, highlights=settings + banners)
