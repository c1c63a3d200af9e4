"""A Jupyter notebook is summarised by its errors, its outline and its cells, not its JSON skeleton."""

from __future__ import annotations

import json
from pathlib import Path

from context_mode.kinds import detect_kind
from context_mode.router import Summary, route
from context_mode.summaries.notebook import is_notebook
from context_mode.types import ContentKind

DATA = Path(__file__).parents[2] / "data"
FORMULAS = (DATA / "statsmodels-0.15-formulas-executed-offline.ipynb").read_text(encoding="utf-8")


def _summary(text: str) -> Summary:
    decision = route(text, tool="run_command", arguments={"command": "cat formulas.ipynb"})
    assert isinstance(decision, Summary)
    return decision


def test_a_notebooks_first_error_shows_under_its_cell_with_the_others_counted() -> None:
    # Failed before: "json: object of 4 keys …", the skeleton's first 20 cells and no output of
    # any: not the failed download that the ten NameErrors below it follow from.
    assert detect_kind(FORMULAS, tool_name="run_command") is ContentKind.JSON
    decision = _summary(FORMULAS)
    assert decision.extract.outline == (
        "notebook: 36 cells (20 markdown, 16 code), 11 errors (NameError ×10, URLError ×1)"
    )
    body = decision.extract.text.splitlines()
    cell = {
        "execution_count": 6,
        "source": ['dta = sm.datasets.get_rdataset("Guerry", "HistData", cache=True)'],
    }
    at = body.index(json.dumps(cell))
    error = json.loads(body[at + 1])
    assert error == {
        "output_type": "error",
        "ename": "URLError",
        "evalue": "<urlopen error [Errno -2] Name or service not known>",
    }
    assert '"evalue": "name \'dta\' is not defined"' in decision.extract.text


def test_a_notebooks_summary_is_its_outline_in_json_pieces_without_its_metadata_below() -> None:
    body = _summary(FORMULAS).extract.text.splitlines()
    pieces = [json.loads(line) for line in body if line != "…"]
    assert pieces[0]["kernelspec"]["name"] == "python3" and pieces[0]["nbformat"] == 4
    notebook = json.loads(FORMULAS)
    headings = [
        "".join(cell["source"]).splitlines()[0]
        for cell in notebook["cells"]
        if cell["cell_type"] == "markdown" and "".join(cell["source"]).startswith("## ")
    ]
    shown = [piece["source"][0] for piece in pieces if piece.get("cell_type") == "markdown"]
    assert headings and all(heading in shown for heading in headings)
    assert '"mimetype"' not in "\n".join(body)  # the payload's last lines: its metadata


def test_only_an_object_with_cells_and_nbformat_is_a_notebook() -> None:
    assert is_notebook(json.loads(FORMULAS))
    assert not is_notebook({"cells": []})
    assert not is_notebook([{"cells": [], "nbformat": 4}])


def test_a_notebook_asked_with_an_intent_shows_no_metadata_as_its_ending() -> None:
    decision = route(
        FORMULAS, tool="run_command", arguments={"command": "cat f.ipynb"}, intent="download error"
    )
    assert isinstance(decision, Summary)
    assert decision.extract.text.startswith("== matching the intent ==")
    assert '"ename": "URLError"' in decision.extract.text
    assert '"mimetype"' not in decision.extract.text
