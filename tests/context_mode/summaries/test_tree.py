"""The tree summariser on path lists: totals and extensions that are really extensions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from context_mode.kinds import detect_kind
from context_mode.policy import RoutingPolicy
from context_mode.router import Summary, route
from context_mode.summaries.tree import summarize_tree
from context_mode.types import ContentKind, OutputStyle
from tests.corpora import BENCH_CORPUS


def test_a_suffix_that_is_no_extension_is_not_counted_as_one() -> None:
    # Found by the summary property test: ".py:10:def handle(request):" was listed as an
    # extension, with its computed count glued to text no payload holds.
    text = "src/app.py\nsrc/util.py\nREADME\nsrc/app.py:10:def handle(request):\n"
    head = summarize_tree(text, budget=400).text.splitlines()
    extensions = next(line for line in head if line.startswith("extensions:"))
    assert ".py ×2" in extensions
    assert "def handle" not in extensions


def test_every_directory_of_a_real_tree_gets_a_line_before_any_gets_all_its_names() -> None:
    # server-filesystem's directory_tree of the click sdist: 122 files in 8 directories. The
    # shallow docs/ (39 files) used to take the budget and leave src/click and the test
    # subfolders unnamed; names are now given in turns, one per directory at a time.
    text = (BENCH_CORPUS / "tree-filesystem-click.json").read_text(encoding="utf-8")
    body = summarize_tree(text, budget=1100).text
    lines = body.splitlines()
    assert 'tests/test_exceptions/ (2 files): "name": "test_FileError.py", "name": "__init__.py",' in lines
    labels = ("./", "docs/", "src/click/", "tests/", "tests/test_types/", "tests/test_utils/")
    for label in labels:
        assert any(line.startswith(f"{label} (") for line in lines), label
    assert not any(line.startswith("src/ (") for line in lines)  # it only holds src/click
    assert len(body.encode()) <= 1100


def test_a_list_directory_listing_is_a_tree_not_a_directive_with_nothing_shown() -> None:
    # The filesystem MCP server's list_directory (``[FILE] name`` / ``[DIR] name``): read as text
    # with nothing standing out, the agent got a Directive and no name at all.
    names = [f"[FILE] _base{n:03d}.js" for n in range(400)] + ["[DIR] fp", "[FILE] package.json"]
    text = "\n".join(names)
    assert detect_kind(text) is ContentKind.TREE
    decision = route(
        text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="list_directory", arguments={}
    )
    assert isinstance(decision, Summary)
    assert decision.extract.outline.startswith("tree: 401 files, 1 directories")
    # its entries are quoted as its lines spell them (they were bare names: ``_base000.js``, ``fp/``)
    assert "./ (401 files): [FILE] _base000.js, [FILE] _base001.js, " in decision.extract.text
    tail = summarize_tree("\n".join(names[-12:]), budget=600).text
    assert tail.endswith("[FILE] _base399.js, [DIR] fp, [FILE] package.json")
    # one line unlike the others (a name opening with a space) makes it a list of lines, shown as
    # they are, not prefixed again (found in review: ``[FILE] [FILE] a.py``)
    odd = summarize_tree("\n".join([*names[:12], "[FILE]  x.txt"]), budget=900).text
    assert "[FILE] [FILE]" not in odd and "[FILE] _base000.js, " in odd
    # the listing with sizes is one too, summarised biggest first (``summaries.sized_listing``)
    sized = "\n".join(f"[FILE] m{n}.py{' ' * 20}{n + 1}.50 KB" for n in range(20))
    assert detect_kind(sized) is ContentKind.TREE
    shown = summarize_tree(sized, budget=600).text.split("\n")
    assert shown[1:3] == ["== biggest first ==", f"[FILE] m18.py{' ' * 20}19.50 KB"]
    assert shown[-2:] == ["== the last entry and the totals ==", f"[FILE] m19.py{' ' * 20}20.50 KB"]


def test_a_list_of_collected_test_ids_is_a_tree_of_test_files_not_a_log_of_errors() -> None:
    # ``pytest --collect-only -q``: ids such as ``…[bench:log-mariadb-error.log]`` counted as
    # error lines; the summary claimed 5 errors where no test had run (at 234 kB, 22 errors).
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "pytest-collect-only-ctxhub.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE
    decision = route(
        text,
        style=OutputStyle.AUTO,
        policy=RoutingPolicy(),
        tool="run_command",
        arguments={"command": "pytest --collect-only -q"},
    )
    assert isinstance(decision, Summary)
    assert decision.extract.outline == "tree: 70 tests in 4 files"
    lines = decision.extract.text.splitlines()
    assert lines[0] == "70 tests in 4 files"
    excerpts = "tests/context_mode/store/test_excerpts.py (11 tests): test_"
    assert any(line.startswith(excerpts) for line in lines)
    assert lines[-1] == "1937 tests collected in 2.42s"


def test_a_directory_tree_under_one_top_directory_is_a_tree() -> None:
    # server-filesystem's directory_tree of an unpacked package: one top-level node ("usr").
    # A JSON list of fewer than three records was no tree: JSON samples of the first names.
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "directory-tree-tcl86-doc-pruned.json").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="directory_tree") is ContentKind.TREE
    decision = route(
        text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="directory_tree", arguments={}
    )
    assert isinstance(decision, Summary)
    assert decision.extract.outline == "tree: 38 files, 7 directories"
    lines = decision.extract.text.splitlines()
    man3 = 'usr/share/man/man3/ (25 files): "name": "DString.3tcl.gz", '
    assert any(line.startswith(man3) for line in lines)


def test_a_sized_listing_whose_long_names_break_its_columns_is_a_tree_with_its_totals() -> None:
    # list_directory_with_sizes of TypeScript's fourslash tests: names of 40 characters push the
    # sizes out of line, so no grid was found and 297 kB came back as a Directive of "text".
    from tests.corpora import REPO

    text = (REPO / "tests" / "data" / "filesystem-sizes-typescript-fourslash-excerpt.txt").read_text(
        encoding="utf-8"
    )
    assert detect_kind(text, tool_name="list_directory_with_sizes") is ContentKind.TREE
    decision = route(
        text, style=OutputStyle.AUTO, policy=RoutingPolicy(), tool="list_directory_with_sizes", arguments={}
    )
    assert isinstance(decision, Summary)
    for line in (
        "[FILE] reallyLargeFile.ts                3.34 MB",
        "[FILE] fourslash.ts                     42.06 KB",
        "Total: 5238 files, 4 directories",
        "Combined size: 7.58 MB",
    ):
        assert line in decision.extract.text


def _tree_j() -> str:
    return (Path(__file__).parents[2] / "data" / "tree-J-django-auth.json").read_text(encoding="utf-8")


def test_tree_j_output_is_a_tree() -> None:
    # ``tree -J`` names a directory's entries ``contents`` and ends with a ``report`` record:
    # before, it was JSON, summarised as an outline of its first objects.
    text = _tree_j()
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE
    extract = summarize_tree(text, budget=2000)
    assert extract.text.startswith("235 files, 204 directories\n")


@pytest.mark.parametrize("tree", ["filesystem", "tree -J"])
def test_a_json_trees_files_are_quoted_as_the_payload_spells_them(tree: str) -> None:
    # A JSON tree's file names were listed bare (``bench.py, bench_edges.py``): what an agent
    # copies from stage 1 to find or quote an entry was no text the payload holds.
    click = BENCH_CORPUS / "tree-filesystem-click.json"
    text = _tree_j() if tree == "tree -J" else click.read_text(encoding="utf-8")
    quoted = re.findall(r'"name": ?"[^"]+"', summarize_tree(text, budget=1500).text)
    assert len(quoted) > 20
    assert all(name in text for name in quoted)


@pytest.mark.parametrize("ascii_only", [True, False])
def test_a_json_trees_non_ascii_names_are_quoted_as_escaped_in_the_payload(ascii_only: bool) -> None:
    # Found in review: Python's json.dumps writes ``"caf\u00e9.py"``; stage 1 quoted "café.py".
    tree = [{"name": "café.py", "type": "file"}, {"name": "src", "type": "directory", "children": []}]
    tree += [{"name": f"m{n}.py", "type": "file"} for n in range(4)]
    text = json.dumps(tree, ensure_ascii=ascii_only, indent=2)
    quoted = re.findall(r'"name": "[^"]+"', summarize_tree(text, budget=600).text)
    assert quoted[0] == ('"name": "caf\\u00e9.py"' if ascii_only else '"name": "café.py"')
    assert all(name in text for name in quoted)


def test_tree_f_names_are_paths_neither_doubled_nor_quoted_as_bare_names() -> None:
    # Found in review: ``tree -fJ`` names a node by its path (``./src/m0.py``): its paths were
    # doubled (``././src/./src/``) and its names quoted as ``"name":"m0.py"``, which it never writes.
    files = [f'{{"type":"file","name":"./src/m{n}.py","size":{size}}}' for n, size in ((0, 50), (1, 90))]
    src = '{"type":"directory","name":"./src","contents":[\n' + ",\n".join(files) + "\n]}"
    top = '{"type":"directory","name":".","contents":[\n' + src + ","
    top += '\n{"type":"file","name":"./a.py","size":10}\n]}'
    text = "[\n" + top + ',\n{"type":"report","directories":1,"files":3}\n]'
    lines = summarize_tree(text, budget=800).text.splitlines()
    assert "./src/ (2 files): m0.py, m1.py" in lines
    assert f"{files[1]} in ./src/" in lines


def test_a_sized_json_trees_report_and_biggest_files_are_shown_as_spelled() -> None:
    # ``tree -J -s``: stage 1 counted files and directories itself but left out the payload's
    # own report record, and every size (what is biggest is what a listing with sizes is read for).
    text = _tree_j()
    lines = summarize_tree(text, budget=2000).text.splitlines()
    assert '{"type":"report","directories":204,"files":235}' in lines
    biggest = lines[lines.index("== biggest first ==") + 1 :][:4]
    assert biggest == [
        f'{{"type":"file","name":"{name}","size":{size}}} in django/contrib/auth/'
        for name, size in (
            ("common-passwords.txt.gz", 80228),
            ("hashers.py", 23335),
            ("forms.py", 21496),
            ("models.py", 21331),
        )
    ]
    assert all(line.split(" in ")[0] in text for line in biggest)


def test_alike_directories_are_one_line_and_the_rest_of_the_tree_is_shown_whole() -> None:
    # 97 ``locale/<language>/LC_MESSAGES/`` directories, each with django.mo and django.po:
    # before, a line each, and the root's own twenty files were cut to one (the room is what the
    # biggest files, ``test_a_sized_json_trees_report_and_biggest_files_are_shown_as_spelled``, leave).
    extract = summarize_tree(_tree_j(), budget=2600)
    lines = extract.text.splitlines()
    assert (
        "django/contrib/auth/locale/*/LC_MESSAGES/ (97 directories: af, ar, ar_DZ, …, zh_Hant; "
        '2 files each): "name":"django.mo", "name":"django.po",'
    ) in lines
    assert not any("/locale/de/" in line for line in lines)
    root = next(line for line in lines if line.startswith("django/contrib/auth/ (20 files): "))
    assert "…" not in root and "validators.py" in root
    commands = "django/contrib/auth/management/commands/ (3 files): "
    assert (
        commands + '"name":"changepassword.py", "name":"createsuperuser.py", "name":"__init__.py",' in lines
    )


def test_a_drawn_tree_indented_with_non_breaking_spaces_is_a_tree() -> None:
    # tree writes ``│\xa0\xa0 ├── [4.0K]  node-gyp-bin``: its lines under a ``│`` were no drawn
    # items, and the listing read as a table of sizes and names.
    text = (Path(__file__).parents[2] / "data" / "tree-h-npm-head.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE


def test_a_listing_with_sizes_shows_its_biggest_entries_and_its_totals() -> None:
    # find -printf '%s %p' was plain text (a Directive, none of its files); du -ah was a table of
    # its first rows ("16K ./fileinput.py" …) and columns "column 1, column 2": the biggest
    # entries, what du is run for, were not in stage 1.
    from context_mode.kinds import detect_kind as kind_of

    found = (Path(__file__).parents[2] / "data" / "find-printf-sizes-usr-include-linux.txt").read_text(
        encoding="utf-8"
    )
    assert kind_of(found, tool_name="run_command") is ContentKind.TREE
    lines = summarize_tree(found, budget=1500).text.split("\n")
    assert lines[:4] == [
        "763 entries: 763 files, 0 directories",
        "== biggest first ==",
        "333304 ./nl80211.h",
        "262081 ./bpf.h",
    ]
    assert lines[-2:] == ["== the last entry and the totals ==", "2303 ./sev-guest.h"]
    du = (BENCH_CORPUS / "table-du-commander-node-modules.txt").read_text(encoding="utf-8")
    assert kind_of(du, tool_name="run_command") is ContentKind.TREE
    shown = summarize_tree(du, budget=1500).text
    assert "62M\tnode_modules/typescript/lib\n" in shown  # the biggest directories, and files
    assert len(shown.encode()) <= 1500


def test_ls_lr_shows_its_biggest_files_not_its_first_directory() -> None:
    # ls -laR of an unpacked sdist was a table of its first rows (the top directory's README and
    # LICENSE): the biggest files, which an agent lists a tree for, were not in stage 1.
    text = (Path(__file__).parents[2] / "data" / "ls-laR-networkx-342-sdist.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE
    lines = summarize_tree(text, budget=2000).text.split("\n")
    biggest = lines.index("== biggest first ==")
    assert lines[biggest : biggest + 3] == [
        "== biggest first ==",
        "-rw-r--r--  1 1001 127 1346746 Oct 21  2024 WormNet.v3.benchmark.txt",
        "-rw-r--r--  1 1001 127 113169 Oct 21  2024 backends.py",
    ]
    assert not any(line.endswith((" .", " ..")) for line in lines)  # ls -a's own entries say nothing


def test_ls_lr_names_its_directories_with_their_entry_counts() -> None:
    # ls -laR of curl's lib/ (five directories) and of an sdist (77): the summary listed the
    # biggest files and never a directory, so "the directory for QUIC backends" (lib/vquic:) or
    # the listing's last directory were not in stage 1.
    from tests.corpora import BENCH_CORPUS

    curl = summarize_tree(
        (BENCH_CORPUS / "tree-ls-lar-curl-7881-lib.txt").read_text(encoding="utf-8"), budget=3000
    )
    lines = curl.text.split("\n")
    assert lines[1:7] == [
        "== directories ==",
        "lib: 279 entries",
        "lib/vauth: 16 entries",
        "lib/vquic: 9 entries",
        "lib/vssh: 4 entries",
        "lib/vtls: 32 entries",
    ]
    text = (Path(__file__).parents[2] / "data" / "ls-laR-networkx-342-sdist.txt").read_text(encoding="utf-8")
    shown = summarize_tree(text, budget=2000).text
    assert len(shown.encode()) <= 2000
    sections = shown.split("== biggest first ==")[0].split("\n")
    assert sections[-2].startswith("networkx-3.4.2/requirements: ")  # the last always
    assert len(sections) >= 8 and sections[-3].startswith("… ")  # as many as fit, then how many more


def test_a_path_list_of_many_directories_names_files_not_only_directories() -> None:
    # find -type f of an sdist (485 files in 60 directories): every line of the summary was a
    # directory's ("src/_cffi_src/openssl/ (23 files): … 23 entries"), no file named at all.
    text = (Path(__file__).parents[2] / "data" / "find-type-f-cryptography-50-sdist.txt").read_text(
        encoding="utf-8"
    )
    lines = summarize_tree(text, budget=2750).text.split("\n")[2:]
    named = [line for line in lines if "): …" not in line]
    assert len(named) >= 0.9 * len(lines) and len(lines) >= 20
    opening = "(3 files) cryptography-50.0.2/src/_cffi_src/build_openssl.py, "
    assert any(line.startswith(opening) for line in lines)


def test_each_directory_line_of_a_path_list_opens_with_a_whole_path_as_listed() -> None:
    # Failed before: search_files' absolute paths were shown as a directory label and bare names
    # ("doc/ (2 files): conf.py, cog_helpers.py"), so no path an agent could use was written out.
    root = "/home/runner/work/coverage-7.6.1"
    paths = [
        f"{root}/setup.py",
        f"{root}/igor.py",
        f"{root}/coverage/sqldata.py",
        f"{root}/coverage/annotate.py",
        f"{root}/coverage/cmdline.py",
        f"{root}/doc/conf.py",
        f"{root}/doc/cog_helpers.py",
        f"{root}/tests/test_lcov.py",
        f"{root}/tests/strategies.py",
        f"{root}/tests/modules/process_test/try_execfile.py",
    ]
    lines = summarize_tree("\n".join(paths) + "\n", budget=1500).text.splitlines()
    assert f"(3 files) {root}/coverage/sqldata.py, annotate.py, cmdline.py" in lines
    assert f"(2 files) {root}/doc/conf.py, cog_helpers.py" in lines
    assert f"(1 files) {root}/tests/modules/process_test/try_execfile.py" in lines
    shown = [line.split(") ", 1)[1].split(",")[0] for line in lines if line.startswith("(")]
    assert shown and all(path in paths for path in shown)  # each as the payload writes it


def test_a_drawn_trees_generated_directories_give_way_to_the_projects_own() -> None:
    # tree -a of libuv as uvloop ships it: autom4te.cache's seven files (a directory autoconf
    # wrote, not the project's) took the room of seven of the project's test files
    text = (Path(__file__).resolve().parents[2] / "data" / "tree-a-libuv-uvloop.txt").read_text(
        encoding="utf-8"
    )
    body = summarize_tree(text, budget=2800).text
    assert "├── autom4te.cache" in body
    assert "── output.0" not in body
    assert "── benchmark-async-pummel.c" in body


def test_two_families_on_one_template_keep_the_larger() -> None:
    # search_files for **/locale/*/_lib/*.js: 84 locales hold the same five files and 7 hold only
    # formatLong.js. Both folded to "*/_lib/": the 7 took the 84's place, so the summary said
    # nothing of the five files most locales hold.
    text = (Path(__file__).parents[2] / "data" / "mcp-search-files-date-fns-locale-lib.txt").read_text(
        encoding="utf-8"
    )
    extract = summarize_tree(text, budget=1500)
    assert (
        "*/_lib/ (84 directories: af, ar, ar-DZ, …, zh-TW; 5 files each): "
        "formatDistance.js, formatRelative.js," in extract.text
    )


@pytest.mark.parametrize(
    ("name", "biggest", "total"),
    [
        # unzip -l of a wheel was a log (its dates): a Directive that showed no file
        (
            "unzip-l-matplotlib-wheel-excerpt.txt",
            "   749360  2024-08-13 00:17   matplotlib/_qhull.cpython-311-x86_64-linux-gnu.so",
            " 20954702                     622 files",
        ),
        # tar tv of an sdist: a log as well
        (
            "tar-tvzf-fonttools-excerpt.txt",
            "-rw-r--r-- runner/docker 1238120 2024-09-24 14:16 fonttools-4.54.1/Tests/merge/data/CFFFont",
            None,
        ),
        # git ls-tree -r -l: a table of its first rows
        ("git-ls-tree-r-l-parso.txt", "100644 blob ", None),
        # jar tvf (size, a date spelled out, path) and python -m zipfile -l (path, date, size):
        # logs for their dates, with no file shown (failed before)
        (
            "jar-tvf-jackson-core-excerpt.txt",
            " 53198 Sun Jun 07 17:18:04 UTC 2026 com/fasterxml/jackson/core/json/UTF8StreamJsonParser.class",
            None,
        ),
        (
            "python-zipfile-l-openpyxl-excerpt.txt",
            "openpyxl/pivot/table.py                        2024-06-28 13:37:06        40756",
            None,
        ),
        # Failed before: restic ls -l (a uid and a gid, no link count) and find -ls (an inode and
        # blocks before the mode) were tables of their first rows; rsync --list-only (its size
        # 164,207), rclone lsl and 7z l were a table and logs of their first lines
        (
            "restic-ls-l-anyio-4160.txt",
            "-rw-r--r--     0     0 164207 2026-12-05 16:19:55 /anyio/_backends/__pycache__/_asyncio.",
            None,
        ),
        (
            "find-ls-anyio-4160.txt",
            "  5341387    164 -rw-r--r--   1 root     root       164207 Dec  5 16:19 anyio/_backends/",
            None,
        ),
        (
            "rsync-list-only-r-anyio-4160.txt",
            "-rw-r--r--        164,207 2026/12/05 16:19:55 anyio/_backends/__pycache__/_asyncio.",
            None,
        ),
        (
            "rclone-lsl-anyio-4160.txt",
            "   164207 2026-12-05 16:19:55.683686798 _backends/__pycache__/_asyncio.cpython-311.pyc",
            None,
        ),
        # Python's tarfile -v -l: a log of its dates, its first and last lines (failed before)
        (
            "python-tarfile-v-l-anyio-4160.txt",
            "?rw-r--r-- root/root     164207 2026-12-05 16:19:55 anyio/_backends/__pycache__/_asyncio.",
            None,
        ),
        (
            "7z-l-anyio-4160.txt",
            "2026-12-05 16:19:55 ....A       164207               anyio/_backends/__pycache__/_asyncio.",
            "2026-12-05 16:19:55            1366178       268486  93 files, 10 folders",
        ),
    ],
)
def test_archive_and_object_listings_show_their_biggest_files_first(
    name: str, biggest: str, total: str | None
) -> None:
    text = (Path(__file__).parents[2] / "data" / name).read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE
    lines = summarize_tree(text, budget=1500).text.split("\n")
    assert lines[1] == "== biggest first =="
    assert lines[2].startswith(biggest)
    if name.startswith("git-ls-tree"):
        assert lines[2].endswith("204714\tdocs/_static/logo.png")
    if total is not None:
        assert lines[-1] == total
    # an archive's directories carry no size of what they hold: they are not the biggest of anything
    assert not any(line.rstrip().endswith("/") for line in lines[2:-2])


def test_a_long_listing_shows_the_entries_whose_mode_few_share() -> None:
    # Failed before: restic ls -l of an npm package (409 files, one executable script) showed its
    # biggest files; "which script has its execute bit" was in no line of stage 1
    from tests.corpora import BENCH_CORPUS

    name = "tree-capz-restic-0140-ls-l-mongodb-6100-npm-snapshot.txt"
    lines = summarize_tree((BENCH_CORPUS / name).read_text(encoding="utf-8"), budget=1500).text.split("\n")
    assert lines[1:4] == [
        "== unusual modes ==",
        "-rwxr-xr-x     0     0    377 1985-10-26 08:15:00 /mongodb/etc/prepare.js",
        "== biggest first ==",
    ]
    # a listing whose files share one mode has none to show
    text = (Path(__file__).parents[2] / "data" / "rsync-list-only-r-anyio-4160.txt").read_text(
        encoding="utf-8"
    )
    assert "== unusual modes ==" not in summarize_tree(text, budget=1500).text


def test_ls_with_blocks_before_the_mode_shows_its_biggest_files() -> None:
    # Failed before: ls -lsR (each entry's blocks before its mode) was a table of its first rows
    text = (Path(__file__).parents[2] / "data" / "ls-lsR-anyio-4160.txt").read_text(encoding="utf-8")
    assert detect_kind(text, tool_name="run_command") is ContentKind.TREE
    lines = summarize_tree(text, budget=1500).text.split("\n")
    biggest = lines.index("== biggest first ==")
    assert lines[biggest + 1 : biggest + 3] == [
        "164 -rw-r--r-- 1 root root 164207 Dec  5 16:19 _asyncio.cpython-311.pyc",
        "112 -rw-r--r-- 1 root root 112180 Dec  5 16:19 _asyncio.py",
    ]


def test_a_tree_drawn_with_sizes_shows_its_biggest_files_next_to_its_top_level() -> None:
    # tree -s -h: the biggest files (yacctab.py, yacc.py, deep in pycparser/ and ply/) were left out
    # for shallower items
    text = (Path(__file__).parents[2] / "data" / "tree-s-h-pycparser.txt").read_text(encoding="utf-8")
    shown = summarize_tree(text, budget=1500).text
    assert "└── [205K]  yacctab.py" in shown
    assert "├── [134K]  yacc.py" in shown
    assert shown.endswith("22 directories, 196 files")


def test_a_tree_drawn_with_sizes_in_bytes_shows_its_biggest_files() -> None:
    # tree -s pads each size to eleven places (``├── [     259122]  mathematics_mathml_pandoc.html``):
    # the size was looked for too close to the branch, so none was read and no biggest file shown.
    text = (BENCH_CORPUS / "tree-s-docutils-0212-sdist.txt").read_text(encoding="utf-8")
    shown = summarize_tree(text, budget=3000).text.split("\n")
    for biggest in ("[     259122]  mathematics_mathml_pandoc.html", "[     148124]  doctree.txt"):
        assert next(line for line in text.splitlines() if line.endswith(biggest)) in shown


def test_a_path_lists_first_and_last_lines_are_shown_as_they_are() -> None:
    # Failed before: a search's first and last results (git ls-files' last file) were in no
    # directory's line, which names a few of each directory's files.
    for name, first, last in (
        (
            "tree-fs-search-date-fns-360-locale-lib.txt",
            "package/locale/af/_lib/formatDistance.js",
            "package/locale/zh-TW/_lib/match.js",
        ),
        ("tree-git-ls-files-libzstd-154-deb.txt", ".gitattributes", "zlibWrapper/zstd_zlibwrapper.h"),
    ):
        text = (BENCH_CORPUS / name).read_text(encoding="utf-8")
        lines = summarize_tree(text, budget=1500).text.splitlines()
        firsts = [line for line in lines if line.startswith("first: ")]
        lasts = [line for line in lines if line.startswith("last: ")]
        assert firsts[0].endswith(first) and lasts[0].endswith(last)
        assert all(line.split(": ", 1)[1] in text.splitlines() for line in firsts + lasts)
    # A JSON tree's first and last lines are brackets: no such lines.
    tree = '[\n  {"name": "a.py", "type": "file"},\n  {"name": "b.py", "type": "file"}\n]'
    assert not any(
        line.startswith(("first: ", "last: ")) for line in summarize_tree(tree, budget=500).text.splitlines()
    )


def test_a_drawn_trees_big_early_directories_leave_room_for_the_later_ones_and_their_last_items() -> None:
    # Failed before: tree -a -L 3 of curl gave docs/ and lib/ (hundreds of items) all the room a
    # level allowed, in order; tests/ (its data and unit tests) came last and showed none of its items.
    text = (BENCH_CORPUS / "tree-tree-a-l3-curl-7881.txt").read_text(encoding="utf-8")
    body = summarize_tree(text, budget=5700).text
    assert "└── test99" in body
    assert "└── unit3200.c" in body
    assert body.endswith("42 directories, 3116 files")


def test_a_name_many_directories_hold_comes_after_their_own_names() -> None:
    # Failed before: directory_tree of mistune named each package's ``"name": "__init__.py"`` first,
    # in the room of a name that tells the directory apart (tests/'s test_inline_limits.py).
    text = (BENCH_CORPUS / "tree-mcp-directory-tree-mistune-340.txt").read_text(encoding="utf-8")
    body = summarize_tree(text, budget=2600).text
    assert '"name": "test_inline_limits.py"' in body
    assert not any(': "name": "__init__.py"' in line for line in body.splitlines())


def test_a_path_list_from_the_filesystem_root_writes_its_paths_with_one_slash() -> None:
    # dpkg -L lists "/." and paths from "/": a directory line opened with "//." (no line of the
    # payload) and named "usr/" though usr/ had a line of its own.
    paths = ["/.", "/usr", "/usr/bin", "/usr/bin/git", "/usr/bin/git-shell", "/usr/lib", "/usr/lib/libgit.so"]
    body = summarize_tree("\n".join(paths) + "\n", budget=1500).text
    assert "//" not in body
    assert "(2 files) /usr/bin/git, git-shell" in body.splitlines()


def test_a_directory_of_many_big_alike_files_leaves_room_for_the_biggest_of_the_rest() -> None:
    # Failed before: find -printf '%s %p' of Babel's sdist showed 60 of locale-data's 1000 .dat
    # files, biggest first, and nothing else; the changelog and the biggest modules were left out.
    locales = [f"{300000 - 997 * n} ./babel/locale-data/l{n:02}.dat" for n in range(40)]
    others = [
        "55069 ./CHANGES.rst",
        "47630 ./babel/core.py",
        "41815 ./babel/messages/catalog.py",
        "1009 ./tox.ini",
    ]
    text = "\n".join([*locales[:20], *others, *locales[20:]]) + "\n"
    lines = summarize_tree(text, budget=500).text.splitlines()
    assert lines[2] == "300000 ./babel/locale-data/l00.dat"  # the biggest file still leads
    for line in others[:3]:
        assert line in lines
    biggest = lines[2 : lines.index("== the last entry and the totals ==")]
    assert 3 <= sum(line.endswith(".dat") for line in biggest) <= len(biggest) - 3


def test_a_json_trees_names_are_quoted_with_the_comma_their_lines_end_in() -> None:
    # Failed before: server-filesystem's directory_tree writes each name on a line of its own,
    # ``"name": "typing-full.pyi",``; stage 1 quoted ``"name": "typing-full.pyi"``, which cut
    # the line's own spelling short; the comma now ends each name and separates it from the next.
    tree = [
        {
            "name": "fixtures",
            "type": "directory",
            "children": [
                {"name": "ir.py", "type": "file"},
                {"name": "typing-full.pyi", "type": "file"},
            ],
        },
        {"name": "README.md", "type": "file"},
    ]
    text = json.dumps(tree, indent=2)
    lines = summarize_tree(text, budget=600).text.splitlines()
    assert 'fixtures/ (2 files): "name": "ir.py", "name": "typing-full.pyi",' in lines
    assert './ (1 files): "name": "README.md",' in lines
    # tree -J closes a file's object after its name: no comma is added there
    closed = (
        '[{"type":"directory","name":"src","contents":'
        '[{"type":"file","name":"a.py"},{"type":"file","name":"b.py"}]}]'
    )
    assert (
        'src/ (2 files): "name":"a.py", "name":"b.py"' in summarize_tree(closed, budget=600).text.splitlines()
    )


def test_a_path_lists_names_fill_the_room_its_directory_lines_leave() -> None:
    # find of the cryptography 50.0.2 sdist (485 paths, 28 kB): each directory's line opens with
    # its first file's whole path, yet the room of a "label/ (N files): " prefix stayed reserved
    # for it, and the first name that did not fit ended every directory's listing; stage 1 used
    # 65% of its budget, one name a directory (both failed before).
    root = "project-5.0.2/src/project/very/deep/package/tree"
    paths = [f"{root}/module_{d:02d}/{chr(97 + n)}_{d:02d}.py" for d in range(20) for n in range(12)]
    paths.insert(1, f"{root}/module_00/{'an_unusually_long_generated_file_name_' * 40}.py")
    extract = summarize_tree("\n".join(paths), budget=2000)
    assert len(extract.text.encode()) >= 1700
    lines = extract.text.split("\n")
    assert any(line.startswith(f"(12 files) {root}/module_05/a_05.py, b_05.py, c_05.py,") for line in lines)


def test_git_ls_tree_and_ls_files_stage_are_path_listings() -> None:
    # ``git ls-tree -r`` (no ``-l``: no sizes) of this repository's packages at b238a00, and
    # ``git ls-files -s`` (mode, object, stage) of them. Failed before: a table of 2 columns named
    # by its first row (``100644 blob 2fe21d5…, context_mode/__init__.py``), its first rows shown.
    for name in ("git-2.39-ls-tree-r-ctxhub-b238a00.txt", "git-2.39-ls-files-s-ctxhub.txt"):
        text = (Path(__file__).parents[2] / "data" / name).read_text(encoding="utf-8")
        assert detect_kind(text) is ContentKind.TREE
        extract = summarize_tree(text, budget=2000)
        files = len(text.splitlines())
        assert extract.text.startswith(f"{files} files, 0 directories\nextensions: .py ×")
        shown = extract.text.splitlines()
        assert any(line.startswith("(") and "files) context_mode/summaries/" in line for line in shown)
