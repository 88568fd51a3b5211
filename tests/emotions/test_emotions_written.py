"""Hand-written anchors and the independent evaluation set: format, rules, independence."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tau_emotion.emotions.anchors import dedupe_key, default_anchor_set
from tau_emotion.emotions.cli import app
from tau_emotion.emotions.evalset import REPO_EVAL_DIR, EvalSetError, load_eval_set
from tau_emotion.emotions.space import EMOTIONS, POLITENESS, TRUST, URGENCY, all_conditions
from tau_emotion.emotions.written import (
    WRITTEN_DIR,
    WrittenFormatError,
    augmented_anchor_set,
    check_written,
    fact_words,
    parse_written,
    read_written,
    sentences,
    text_problem,
    written_anchor_set,
)

runner = CliRunner()


def test_every_condition_has_ten_written_anchors_and_the_set_is_clean() -> None:
    texts = read_written([WRITTEN_DIR])
    counts = Counter(t.condition_id for t in texts)
    assert {c.id for c in all_conditions()} == set(counts)
    assert min(counts.values()) >= 10 and len(texts) >= 5940
    # One rule set for all of them: anchor shape, one to five sentences, behaviour only, and
    # no sentence shared between two anchors, within a condition or across conditions.
    assert check_written(texts, minimum_per_condition=10) == []


def test_no_shipped_anchor_carries_facts() -> None:
    # The simulator gets one anchor as its emotional instruction: it must describe behaviour
    # only, never a goal, product, relative, amount or date that the task does not have.
    for cid, texts in default_anchor_set().anchors.items():
        for text in texts:
            assert fact_words(text) == [], (cid, text)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            "You want the order your late husband placed cancelled, and you say so very softly.",
            "husband",
        ),
        (
            "You are in a rush because the flight leaves tomorrow; you tell the agent so twice.",
            "flight",
        ),
        (
            "You insist on the $40 back at once, and you repeat it in every single message you send.",
            "$",
        ),
        (
            "You have waited three weeks already, so your patience with the agent is thin now.",
            "weeks",
        ),
    ],
)
def test_fact_scan_finds_goals_relatives_amounts_and_dates(text: str, needle: str) -> None:
    problem = text_problem(text)
    assert problem is not None and "facts" in problem and needle in problem


def test_sentences_split_on_final_punctuation_and_quotes() -> None:
    text = 'You sigh. You write "fine, whatever." Then you wait! Do you? Yes.'
    assert sentences(text) == [
        "You sigh.",
        'You write "fine, whatever."',
        "Then you wait!",
        "Do you?",
        "Yes.",
    ]
    assert "sentences" in (text_problem("You wait. " * 6 + "You go on and on about it all.") or "")


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "x.txt"
    path.write_text(body, encoding="utf-8")
    return path


def test_shared_sentences_and_short_conditions_are_reported_with_their_lines(
    tmp_path: Path,
) -> None:
    line = "You keep every reply short and flat, and you never thank the agent for anything."
    path = _write(
        tmp_path,
        "# header\n[anger.annoyance.cold.low.trusting]\n"
        f"{line} You wait.\n[anger.annoyance.cold.low.cautious]\n~ {line}\n",
    )
    texts = parse_written(path)
    assert [t.negation for t in texts] == [False, True]
    problems = check_written(texts, minimum_per_condition=2)
    assert any(f"{path}:5: sentence already used at {path}:3" in p for p in problems)
    assert sum("texts (< 2)" in p for p in problems) == 2


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("You sit there.\n", "text before any [condition] header"),
        ("[anger.rage.cold.low.trusting]\nYou fume.\n", "unknown condition id"),
    ],
)
def test_format_errors_name_file_and_line(tmp_path: Path, body: str, needle: str) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(WrittenFormatError, match=re.escape(needle)) as info:
        parse_written(path)
    assert str(path) in str(info.value)
    result = runner.invoke(app, ["check-written", str(path)])
    assert result.exit_code == 2 and needle in result.output


def test_check_written_command_passes_the_shipped_anchors() -> None:
    result = runner.invoke(app, ["check-written", str(WRITTEN_DIR), "--minimum", "10"])
    assert result.exit_code == 0, result.output
    assert "0 problem(s)" in result.output


def test_augmentation_keeps_written_anchors_first() -> None:
    written = written_anchor_set()
    augmented = augmented_anchor_set(written, 2)
    cid = all_conditions()[7].id
    assert augmented.anchors[cid][: len(written.anchors[cid])] == written.anchors[cid]
    assert len(augmented.anchors[cid]) == len(written.anchors[cid]) + 2
    assert augmented.source == "written+template:0x2"


def test_independent_set_meets_its_counts() -> None:
    eval_set = load_eval_set(REPO_EVAL_DIR)
    per_condition = Counter(t.condition_id for t in eval_set.descriptions)
    assert len(eval_set.descriptions) >= 1200
    assert min(per_condition[c.id] for c in all_conditions()) >= 2
    assert check_written(eval_set.descriptions) == []
    messages = eval_set.messages
    assert len(messages) >= 300
    assert check_written(messages, second_person=False) == []
    emotions = Counter(t.condition_id.split(".")[1] for t in messages)
    assert set(emotions) == set(EMOTIONS)
    for position, values in ((2, POLITENESS), (3, URGENCY), (4, TRUST)):
        assert set(Counter(t.condition_id.split(".")[position] for t in messages)) == set(values)
    assert len(eval_set.negations) >= 100


def test_independent_set_never_enters_training() -> None:
    eval_set = load_eval_set(REPO_EVAL_DIR)
    anchor_sentences = {
        dedupe_key(s)
        for texts in default_anchor_set().anchors.values()
        for t in texts
        for s in sentences(t)
    }
    eval_texts = {dedupe_key(t.text) for t in eval_set.descriptions + eval_set.messages}
    anchor_texts = {dedupe_key(t) for texts in default_anchor_set().anchors.values() for t in texts}
    assert not eval_texts & anchor_texts
    # Short stock sentences ("You take the agent at their word.") recur between independent
    # authors working from the same definitions; a shared sentence of nine words or more would
    # mean one set was copied from the other.
    shared = [
        s
        for t in eval_set.descriptions
        for s in sentences(t.text)
        if len(s.split()) >= 9 and dedupe_key(s) in anchor_sentences
    ]
    assert shared == []


def test_eval_set_errors_name_the_folder(tmp_path: Path) -> None:
    with pytest.raises(EvalSetError, match=str(tmp_path)):
        load_eval_set(tmp_path)
    result = runner.invoke(app, ["eval", "--eval-set", str(tmp_path)])
    assert result.exit_code == 2 and "incomplete" in result.output


def test_eval_command_reports_every_part(tmp_path: Path) -> None:
    full = load_eval_set(REPO_EVAL_DIR)
    picked = {"descriptions.txt": full.descriptions[::60], "messages.txt": full.messages[::30]}
    negated = [t for t in full.negations][:3]
    for name, texts in picked.items():
        extra = [t for t in negated if t.path.name == name]
        lines = [f"[{t.condition_id}]\n{'~ ' if t.negation else ''}{t.text}" for t in texts + extra]
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(
        app, ["eval", "--eval-set", str(tmp_path), "--json", str(tmp_path / "r.json")]
    )
    assert result.exit_code == 0, result.output
    for part in ("descriptions", "messages", "negation and contrast"):
        assert part in result.output
    assert "family" in (tmp_path / "r.json").read_text()


# --- a malformed header is an error, not an anchor text (audit defect 6) ------------------


@pytest.mark.parametrize(
    "header",
    ["[anger.annoyance.warm.low.Cautious]", "[anger-annoyance]", "[anger.annoyance.warm.low.2]"],
)
def test_a_malformed_header_names_its_line_everywhere(tmp_path: Path, header: str) -> None:
    folder = tmp_path / "written"
    folder.mkdir()
    lines = (WRITTEN_DIR / "annoyance.txt").read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith("["))
    number = next(
        i for i, line in enumerate(lines, start=1) if line.startswith("[") and i > number
    )  # the second header: the first condition's texts lie above it
    lines[number - 1] = header
    path = folder / "annoyance.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    needle = f"{path}:{number}: malformed header {header!r}"
    with pytest.raises(WrittenFormatError, match=re.escape(needle)):
        parse_written(path)
    checked = runner.invoke(app, ["check-written", str(folder), "--minimum", "10"])
    assert checked.exit_code == 2 and needle in checked.stderr
    out = tmp_path / "a.json.gz"
    for extra in ([], ["--partial"]):
        built = runner.invoke(app, ["anchors", "--written", str(folder), "--out", str(out), *extra])
        assert built.exit_code == 2 and needle in built.stderr
        assert not out.exists()


# --- check-written --minimum counts every condition (audit defect 10) ---------------------


def test_check_written_minimum_reports_conditions_with_no_texts(tmp_path: Path) -> None:
    folder = tmp_path / "written"
    folder.mkdir()
    (folder / "annoyance.txt").write_bytes((WRITTEN_DIR / "annoyance.txt").read_bytes())
    result = runner.invoke(app, ["check-written", str(folder), "--minimum", "10"])
    assert result.exit_code == 1
    missing = [c.id for c in all_conditions() if c.emotion != "annoyance"]
    assert f"{missing[0]}: 0 texts (< 10)" in result.stdout
    assert "567 problem(s)" in result.stdout  # as many as `anchors` refuses the folder for
    refused = runner.invoke(
        app, ["anchors", "--written", str(folder), "--out", str(tmp_path / "x")]
    )
    assert refused.exit_code == 1 and "567 problem(s)" in refused.stderr
    only = runner.invoke(
        app, ["check-written", str(folder), "--minimum", "10", "--emotion", "annoyance"]
    )
    assert only.exit_code == 0, only.output
