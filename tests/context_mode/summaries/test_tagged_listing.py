"""Listings whose entries end with a bracketed state show the rarer states first
(``summaries.tagged_listing``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from context_mode.router import Summary, route
from context_mode.summaries.tagged_listing import summarize_tagged_listing
from context_mode.types import ContentKind
from tests.context_mode.summaries.test_summaries import assert_verbatim
from tests.corpora import BENCH_CORPUS, own_summary

DATA = Path(__file__).parents[2] / "data"
APT = "table-apt-list-installed-bookworm.txt"  # apt list --installed on Debian 12, a real capture


def test_apt_list_shows_packages_installed_by_hand_upgradable_and_local_before_dependencies() -> None:
    # It was a log: its warning, then a fold of alike lines, most of them automatic dependencies.
    text = (BENCH_CORPUS / APT).read_text(encoding="utf-8")
    decision = route(text, tool="run_command")
    assert isinstance(decision, Summary)
    extract = decision.extract
    assert extract.text.endswith(text.rstrip().splitlines()[-1])  # the listing's last entry, below
    extract = replace(extract, text=own_summary(text, decision))  # the listing's own picks
    assert extract.outline == (
        "listing: 859 entries with states: [installed,automatic] ×672, [installed,upgradable to] ×91,"
        " [installed] ×75, [installed,local] ×21"
    )
    shown = extract.text.splitlines()
    assert shown[:2] == [
        "WARNING: apt does not have a stable CLI interface. Use with caution in scripts.",
        "Listing...",
    ]
    assert "chromium/oldstable,now 150.0.7871.100-1~deb12u1 amd64 [installed]" in shown
    assert "curl/now 7.88.1-10+deb12u14 amd64 [installed,upgradable to: 7.88.1-10+deb12u15]" in shown
    assert "google-cloud-cli-anthoscli/now 528.0.0-0 amd64 [installed,local]" in shown
    assert not any(line.endswith("[installed,automatic]") for line in shown[:-1])  # but the last line
    assert_verbatim(extract.text, text)
    # the call's terms first, whatever their state
    aimed = summarize_tagged_listing(text, kind=ContentKind.TEXT, budget=1500, terms=("tzdata",))
    assert aimed is not None
    assert "tzdata/now 2025b-0+deb12u2 all [installed,upgradable to: 2026b-0+deb12u1]" in aimed.text


def test_lines_that_end_in_a_percentage_or_in_one_state_are_no_tagged_listing() -> None:
    progress = "\n".join(f"tests/test_a.py::test_{n} PASSED{' ' * 20}[{n:3d}%]" for n in range(1, 60))
    assert summarize_tagged_listing(progress, kind=ContentKind.LOG, budget=1500) is None
    upgradable = "\n".join(f"lib{n}/stable 1.{n} amd64 [upgradable from: 1.0]" for n in range(40))
    assert summarize_tagged_listing(upgradable, kind=ContentKind.TEXT, budget=1500) is None


def test_files_report_counts_the_paths_by_type_the_rarer_types_shown_first() -> None:
    # Failed before: "yaml: 186 lines, 184 top-level keys" and its first lines, all of one kind.
    text = (DATA / "file-5.44-usr-bin-a-d.txt").read_text(encoding="utf-8")
    decision = route(text, tool="run_command", arguments={"command": "file /usr/bin/[a-d]*"})
    assert isinstance(decision, Summary)
    assert decision.extract.outline == (
        "files: 186 by type: ELF 64-bit LSB pie executable ×85, symbolic link ×46, Perl script text"
        " executable ×36, POSIX shell script ×14, setuid ELF 64-bit LSB pie executable ×2, Python"
        " script ×2, 1 more type"
    )
    shown = own_summary(text, decision).splitlines()
    kinds = {line.split(":", 1)[1].split(",")[0].strip().split(" to ")[0] for line in shown if ":" in line}
    assert {"setuid ELF 64-bit LSB pie executable", "Python script", "POSIX shell script"} <= kinds
    assert_verbatim("\n".join(shown), text)


def test_aligned_key_value_lines_are_no_files_report() -> None:
    # ``lscpu``'s fields are aligned as ``file``'s types are, but name no paths.
    fields = "\n".join(f"Field number {n}:{' ' * (20 - len(str(n)))}value {n % 3}" for n in range(40))
    assert summarize_tagged_listing(fields, kind=ContentKind.TEXT, budget=1500) is None
