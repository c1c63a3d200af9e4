"""Several tables one after another: ``psql``'s ``\\d+`` of several tables, a script's queries.

``shapes.table_headers(lines)`` finds the tables: a header line holding a ``|`` right above a rule
line (``------+------``, ``+----+----+``); ``aligned_table_headers(lines)`` the column-aligned ones
(``sqlite3 -column``: a header over dash runs, ``-----  ----``), whose rows are every line below
their rule. With two or more, ``summarize_table_sections`` shows each table by its lines
(trailing padding dropped, a long line keeping its start and its end): its title (the line above
the header: ``Table "public.airports"``, or above a box's top rule: PSPP's ``Chi-Square Tests``),
its header (all its lines when it spans several in a box, wrapped cells or a group over its
columns; the rules between rows left out without a ``…``; one that repeats the previous table's
ranks low), its rows, first rows of every table before later rows of any (a totals row, ``| TOTAL | 293
|``, with the headers), and the lines after its rows (``Indexes:`` and its items, ``Access method:
heap``, a ``(3 rows)`` count; the text's last line, a verdict or totals under the last table,
with the lines above the first). A header and its rows
leave out the columns empty in every row (psql's Collation, Compression…): the leading columns kept
are shown as the payload spells them, the others as their cells joined by `` | ``, each a value of
the payload. The outline counts tables and rows and names the titles. Linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_mode.shapes import BOXED_HEADER_LINES, is_rule
from context_mode.summaries.extract import Extract, term_matcher
from context_mode.summaries.packing import Pick, pack
from context_mode.summaries.table_grid import parse_grid
from context_mode.types import ContentKind

_WIDTH = 160
MIN_TABLES = 2
_LAST_ROW_RANK = 3  # a table's last row ranks as its row of this rank
_PREAMBLE_PRIORITY = 90.0
_TOTAL_PRIORITY = 85.0
# A verdict or totals line states a figure and what it counts (not psql's "Access method: heap")
_VERDICT = re.compile(r"(?i)\b(?:pass|fail|result|total|error|warning|ok\b|minimum|maximum)\w*.*\d|\d.*%")
# A totals row: its first cell a totals word (``| TOTAL | 293 |``, ``Total  12  3``)
_TOTAL_ROW = re.compile(r"[\s|]*(?:total|totals|grand total|all|sum)\s*(?:\||\s{2,})", re.IGNORECASE)
_SUPERSEDED_BELOW = 40.0  # a table's rows printed again below it, with the same header, rank this much lower
_MAX_RUNS = 200  # more blank-separated runs than this are no few tables
_DASH_RUNS = re.compile(r"-+(?: +-+)+ *\Z")  # ``sqlite3 -column``'s rule: one run of dashes a column


def summarize_table_sections(
    lines: Sequence[str],
    headers: Sequence[int],
    *,
    budget: int,
    terms: Sequence[str] = (),
    ruled: bool = True,
    titled: bool = False,
) -> Extract:
    """Each table's title, header, rows and closing lines, within ``budget`` bytes (module doc);
    ``ruled``: a rule line under each header (else its rows start right below it); ``titled``: the
    line right above a header is its title, no blank line above it (CSV tables one after another)."""
    shown = [line.rstrip() for line in lines]
    matches = term_matcher(terms)
    picks: list[Pick] = []
    titles: list[str] = []
    rows_total = 0
    seen_headers: set[tuple[str, ...]] = set()
    title_of = {header: at for header in headers if (at := _title_at(shown, header, titled)) is not None}
    titles_at = set(title_of.values())
    filler: set[int] = {header + 1 for header in headers} if ruled else set()  # shown by the header
    below = 2 if ruled else 1  # a table's first row: under its rule, or under its header
    # A table printed again and again without a title (locust's stats every few seconds, ``vmstat
    # 1 5``): the last print is the latest state, the earlier ones rank below every other table.
    bounds = [*headers, len(shown)]
    # A boxed header over several lines (PSPP's "Cases" over "Valid | Missing" over "N | Percent")
    # ends at the first rule across the whole box; its rows start below that one.
    ends = [
        _header_end(lines, header, stop) if ruled else header
        for header, stop in zip(bounds, bounds[1:], strict=False)
    ]
    cuts_of = [_cuts(lines[end + 1]) if ruled else [] for end in ends]
    names_of = [
        tuple(cell for cell in _cells(lines[header], cuts) if cell)
        for header, cuts in zip(headers, cuts_of, strict=True)
    ]
    last_print = {names: order for order, names in enumerate(names_of) if headers[order] not in title_of}
    # The lines above the first table (the command, the tool's version) say what the tables are.
    for rank, index in enumerate(i for i in range(headers[0]) if shown[i].strip()):
        picks.append(Pick(index, index + 1, _PREAMBLE_PRIORITY - 2.0 * min(rank, 30)))
    last_line = next((i for i in range(len(shown) - 1, headers[-1], -1) if shown[i].strip()), -1)
    for order, (header, stop) in enumerate(zip(bounds, bounds[1:], strict=False)):
        if (title := title_of.get(header)) is not None:
            shown[title] = shown[title].strip()
            picks.append(Pick(title, title + 1, 100.0 - 0.1 * order))
            titles.append(shown[title])
        cuts = cuts_of[order]
        end = ends[order]
        continued = [i for i in range(header + 1, end + 1) if not is_rule(lines[i])]
        filler.update(i for i in range(header + 1, end + 2) if is_rule(lines[i]))
        picks.extend(Pick(i, i + 1, 94.9 - 0.1 * order) for i in continued)
        body = [i for i in range(end + below, stop) if i not in titles_at and shown[i].strip()]
        piped = "|" in lines[header]
        rows = [i for i in body if not piped or _is_row(lines[i], cuts)]
        rows = rows[
            : next(
                (n + 1 for n, (a, b) in enumerate(zip(rows, rows[1:], strict=False)) if b != a + 1), len(rows)
            )
        ]
        _narrow(lines, shown, [header, *continued, *rows], cuts)
        names = names_of[order]
        superseded = last_print.get(names, order) > order
        picks.append(Pick(header, header + 1, (40.0 if names in seen_headers else 95.0) - 0.1 * order))
        seen_headers.add(names)
        rows_total += len(rows)
        for rank, index in enumerate(body, start=1):
            if ruled and is_rule(lines[index]):
                filler.add(index)  # a rule between rows (``|----+----|``, the box's closing one)
                continue
            priority = (70.0 if index in rows else 65.0) - 2.0 * min(rank, 30) - 0.01 * order
            if rows and index == rows[-1]:  # where the table ends: ranked as its third row
                priority = max(priority, 70.0 - 2.0 * _LAST_ROW_RANK - 0.01 * order)
            if index in rows and _TOTAL_ROW.match(lines[index]):
                priority = _TOTAL_PRIORITY  # a totals row (``| TOTAL | 293 | 87 | 70.3% |``)
            elif index == last_line and index not in rows and _VERDICT.search(lines[index]):
                priority = _PREAMBLE_PRIORITY  # the verdict under the last table ("RESULT: FAILED …")
            if superseded and index in rows:
                priority -= _SUPERSEDED_BELOW
            if terms and matches(lines[index]):
                priority += 30.0
            picks.append(Pick(index, index + 1, priority))
    text = pack(shown, picks, budget, width=_WIDTH, gaps="short", filler=filler, ends=True)
    outline = f"tables: {len(headers)} table{'' if len(headers) == 1 else 's'}, {rows_total} rows"
    if titles:
        named = ", ".join(titles[:6]) + (", …" if len(titles) > 6 else "")
        outline += f" ({named})"
    return Extract(text=text, kind=ContentKind.TABLE, outline=outline, highlights=len(headers))


def aligned_table_headers(lines: Sequence[str]) -> list[int]:
    """The header lines of column-aligned tables one after another (``sqlite3 -column`` prints
    each query's result so, with no blank line between): a line right above a rule of dash runs,
    each run starting where one of the line's cells starts (the header's names are left-aligned;
    a rule under the rows, above a totals line, starts under right-aligned numbers)."""
    headers: list[int] = []
    for index in range(1, len(lines)):
        rule, above = lines[index], lines[index - 1]
        if not _DASH_RUNS.match(rule) or not above.strip():
            continue
        runs = [at for at, char in enumerate(rule) if char == "-" and (at == 0 or rule[at - 1] == " ")]
        if all(at < len(above) and above[at] != " " and (at == 0 or above[at - 1] == " ") for at in runs):
            headers.append(index - 1)
    return headers


def blank_separated_headers(lines: Sequence[str]) -> list[int]:
    """The header lines of column-aligned tables one under another with a blank line between them
    (``kubectl get all``, a script printing several pandas frames): every run of non-blank lines
    is a header and at least one row whose columns line up (``table_grid.parse_grid``, aligned,
    two or more columns). Empty unless there are ``MIN_TABLES`` such runs and no other."""
    runs: list[list[int]] = []
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        elif len(runs) > _MAX_RUNS:
            return []
        else:
            runs.append([index])
    if len(runs) < MIN_TABLES:
        return []
    for run in runs:
        grid = parse_grid(lines, run[0], run[1:]) if len(run) > 1 else None
        if grid is None or grid.delimiter:
            return []
    return [run[0] for run in runs]


def _cuts(rule: str) -> list[int]:
    """Where a rule line separates columns (its ``+``), the table's borders left out."""
    inner = rule.rstrip()
    return [i for i, char in enumerate(inner) if char == "+" and 0 < i < len(inner) - 1]


def _cells(line: str, cuts: Sequence[int]) -> list[str]:
    bounds = [0, *cuts, len(line)]
    return [line[a:b].strip().strip("|").strip() for a, b in zip(bounds, bounds[1:], strict=False)]


def _is_row(line: str, cuts: Sequence[int]) -> bool:
    """A table row has its separators where the rule has its ``+`` (or no rule to tell by)."""
    return "|" in line and all(i < len(line) and line[i] == "|" for i in cuts)


def _narrow(lines: Sequence[str], shown: list[str], indexes: Sequence[int], cuts: Sequence[int]) -> None:
    """Rewrite the header and rows at ``indexes`` in ``shown`` without the columns empty in every
    row: the leading columns kept whole as the payload spells them, the rest as cells joined by
    `` | ``, each a payload value (psql's ``\\d+`` leaves Collation, Compression… empty)."""
    if not cuts or len(indexes) < 2:
        return
    table = [_cells(lines[i], cuts) for i in indexes]
    kept = [c for c in range(len(cuts) + 1) if any(row[c] for row in table[1:] if c < len(row))]
    if len(kept) == len(cuts) + 1:
        return
    leading = 0
    while leading < len(kept) and kept[leading] == leading:
        leading += 1
    for index, cells in zip(indexes, table, strict=True):
        line = lines[index]
        spelled = [line[: cuts[leading - 1]].rstrip()] if leading else []
        spelled += [cells[c] if c < len(cells) else "" for c in kept[leading:]]
        while len(spelled) > 1 and not spelled[-1]:
            spelled.pop()  # empty last cells say nothing
        shown[index] = " | ".join(spelled).rstrip()


def _header_end(lines: Sequence[str], header: int, stop: int) -> int:
    """The last line of the header at ``header``: itself, or for a boxed header over several lines
    (wrapped cells, or a rule spanning some columns under it, ``|    +------+``) the line above
    the first rule across the whole box."""
    if not lines[header].startswith("|"):
        return header
    for index in range(header + 1, min(stop, header + BOXED_HEADER_LINES)):
        if lines[index].startswith("+") and is_rule(lines[index]):
            return index - 1
        if not lines[index].startswith("|"):
            break
    return header


def _title_at(lines: Sequence[str], header: int, titled: bool = False) -> int | None:
    """The line naming the table whose header is line ``header``: the line right above it, or
    above the box's top rule (``+----+----+``, PSPP's and tabulate's grids); None when none does.
    ``titled``: the line right above is the title whatever is above it."""
    if _is_title(lines, header - 1) or titled and header >= 1 and lines[header - 1].strip():
        return header - 1
    top = lines[header - 1] if header >= 1 else ""
    if top.startswith("+") and is_rule(top) and _is_title(lines, header - 2):
        return header - 2
    return None


def _is_title(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` (right above a header) names the table: words, no ``|``, a blank
    line or the start above it (else it is the previous table's last line)."""
    return (
        index >= 0
        and bool(lines[index].strip())
        and "|" not in lines[index]
        and (index == 0 or not lines[index - 1].strip())
    )
