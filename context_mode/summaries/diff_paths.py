"""Which files of a diff a reviewer reads last: copies of code the project does not write by hand.

``is_copied(path)`` says whether a changed file is build output or a vendored copy: it lies in a
directory a build writes (``dist/``, ``build/``, ``out/``), one that holds other projects' code
(``vendor/``, ``vendored/``, ``third_party/``, ``node_modules/``) or one a tool generates
(``shapes.is_generated_dir``: ``__pycache__``, ``x.egg-info``…), or it is minified (``x.min.js``)
or a source map. Its changes repeat, by a build or an upgrade of someone else's code, what the
project's own files say; the diff summary ranks its header and lines after the project's.
"""

from __future__ import annotations

import re

from context_mode.shapes import is_generated_dir

_COPIES = frozenset("dist build out vendor vendored _vendor third_party third-party node_modules".split())
_MINIFIED = re.compile(r"\.min\.(?:js|css)\Z|\.(?:js|css)\.map\Z")


def is_copied(path: str) -> bool:
    """Whether the file at ``path`` (``src/wheel/vendored/packaging/tags.py``) is build output or a
    vendored copy rather than the project's own source."""
    *folders, name = path.split("/")
    return _MINIFIED.search(name) is not None or any(
        folder in _COPIES or is_generated_dir(folder) for folder in folders
    )
