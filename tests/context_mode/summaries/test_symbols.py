"""A binary's symbol table is read as what it defines and needs (``summaries.symbols``)."""

from __future__ import annotations

from context_mode.kinds import detect_kind
from context_mode.summaries import summarize
from context_mode.summaries.packing import is_marker
from context_mode.summaries.symbols import summarize_symbols
from context_mode.types import ContentKind
from tests.corpora import BENCH_CORPUS

DATA = BENCH_CORPUS.parent.parent / "tests" / "data"
_READELF = BENCH_CORPUS / "table-heron-readelf-dyn-syms-libjq-16.txt"
_NM = BENCH_CORPUS / "rows-nm-d-libcurl.txt"
_OBJDUMP = DATA / "objdump-T-libz-1.2.13.txt"


def _verbatim(shown: list[str], text: str) -> bool:
    lines = set(text.splitlines())
    return all(line in lines or is_marker(line) for line in shown)


def test_readelfs_symbols_show_the_biggest_functions_and_the_highest_glibc_needed() -> None:
    # readelf --dyn-syms of libjq: read as "log: 317 lines, 0 failed tests, 2 errors" (error in
    # symbol names) with a few hundred lines cut to their first and last (failed before).
    text = _READELF.read_text(encoding="utf-8")
    kind = detect_kind(text, tool_name="run_command")
    extract = summarize(text, kind, budget=2500)
    assert extract.outline == f"{kind.value}: symbol table, 313 symbols (172 defined, 141 undefined)"
    shown = extract.text.splitlines()
    assert shown[0] == (
        "== 313 symbols · 172 defined · 141 undefined · needs GLIBC_2.2.5…GLIBC_2.35 ×129 · 12 unversioned =="
    )
    assert "Symbol table '.dynsym' contains 314 entries:" in shown
    assert "   275: 0000000000028cf0  6894 FUNC    GLOBAL DEFAULT   12 jv_parser_next" in shown  # the biggest
    assert "   189: 0000000000017800  6576 FUNC    GLOBAL DEFAULT   12 jq_next" in shown
    assert "   100: 0000000000000000     0 FUNC    GLOBAL DEFAULT  UND hypot@GLIBC_2.35 (12)" in shown
    assert "   313: 0000000000019b70     7 FUNC    GLOBAL DEFAULT   12 jq_halted" in shown  # the last
    assert _verbatim(shown[1:], text)


def test_nms_symbols_show_the_version_nodes_and_each_librarys_imports() -> None:
    # nm -D of libcurl: read as "table: 584 rows × 3 columns (column 1, U, ASN1_…)", its first
    # rows all OpenSSL imports (failed before).
    text = _NM.read_text(encoding="utf-8")
    extract = summarize(text, detect_kind(text, tool_name="run_command"), budget=2500)
    shown = extract.text.splitlines()
    assert shown[0].startswith(
        "== 585 symbols · 92 defined · 492 undefined · needs OPENSSL_3.0.0 ×208, "
        "GLIBC_2.2.5…GLIBC_2.34 ×113, "
    )
    assert "0000000000000000 A CURL_OPENSSL_4" in shown
    assert "0000000000024f80 T curl_easy_perform@@CURL_OPENSSL_4" in shown
    assert any(line.endswith("@gssapi_krb5_2_MIT") for line in shown)
    assert any(line.endswith("@IDN2_0.0.0") for line in shown)
    assert _verbatim(shown[1:], text)


def test_objdumps_dynamic_symbols_are_read_with_their_versions() -> None:
    text = _OBJDUMP.read_text(encoding="utf-8")
    extract = summarize_symbols(text, kind=ContentKind.TABLE, budget=1500)
    assert extract is not None
    assert extract.outline == "table: symbol table, 124 symbols (88 defined, 22 undefined)"
    shown = extract.text.splitlines()
    assert shown[0] == (
        "== 124 symbols · 88 defined · 22 undefined · needs GLIBC_2.2.5…GLIBC_2.14 ×19 · 3 unversioned"
        " · 14 version nodes =="
    )
    assert "DYNAMIC SYMBOL TABLE:" in shown
    assert "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.14) memcpy" in shown
    assert "000000000000c1e0 g    DF .text\t00000000000022f6  Base        inflate" in shown  # the biggest
    assert _verbatim(shown[1:], text)


def test_a_symbols_summary_stays_within_any_budget_and_other_texts_are_not_read() -> None:
    for path in (_READELF, _NM, _OBJDUMP):
        text = path.read_text(encoding="utf-8")
        for cut in (len(text), len(text) // 3, 3000):
            for budget in (0, 10, 60, 100, 200, 400, 1500):
                extract = summarize_symbols(text[:cut], kind=ContentKind.TABLE, budget=budget)
                assert extract is not None and len(extract.text.encode()) <= budget
    log = "\n".join(f"2026-12-05 10:00:{n % 60:02} INFO worker {n} done" for n in range(100))
    assert summarize_symbols(log, kind=ContentKind.LOG, budget=1500) is None
    few = "\n".join(["                 U free@GLIBC_2.2.5"] * 5 + ["some prose line"] * 40)
    assert summarize_symbols(few, kind=ContentKind.TEXT, budget=1500) is None
