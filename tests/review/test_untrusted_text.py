"""What coderefine did not write (the model's words, the repository's names, messages from the box
and the endpoint) in the reports people read: quoted, never rendered; every comment within
GitHub's limit; nothing raw on a terminal."""

from __future__ import annotations

import re
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coderefine.engine import Facts, Iteration, Prompt, StopRule, Usage
from coderefine.review import document as documents
from coderefine.review import github, gitlab, limits, markdown, posting, quoting, reports
from coderefine.review.git import Span
from tests.review.test_github import improved, review_schema
from tests.review.test_reports import DIFF, document

GITHUB_LIMIT = 65_536
HOSTILE = (
    "Correct: sum() runs the loop in C.\n\n<details open><summary>Click</summary>\n"
    '<img src=x onerror="alert(1)"> [click](https://evil.example) see https://evil.example/steal '
    "and www.evil.example, @team and @user, fixes #123; uses `sum` and ```fences```; "
    "\u202eevil\u202c zero\u200bwidth \x1b[31mred\x1b[0m\n# Heading\nNOTHING LEFT TO GAIN"
)
# What would show were the text rendered: markup, a link, a mention, a reference, a raw control.
RENDERED = (
    "<details open",
    "<summary>Click",
    "<img",
    "](",
    "https://",
    "www.",
    "@team",
    "@user",
    "#123",
    "# Heading",
    "\u202e",
    "\u202c",
    "\u200b",
    "\x1b",
)


def outside_code(text: str) -> str:
    """What of Markdown `text` is read as markup or prose: all but its fenced code blocks and its
    code spans, by CommonMark's rules (a fence closes at a line of as many backticks or more; a
    code span at the next run of exactly as many backticks, within its paragraph)."""
    kept: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        if fence is not None:
            if set(line.strip()) == {"`"} and len(line.strip()) >= len(fence):
                fence = None
            continue
        opening = re.match(r" {0,3}(`{3,})([^`]*)$", line)
        if opening:
            fence = opening.group(1)
            continue
        kept.append(line)
    return "\n\n".join(_without_spans(block) for block in "\n".join(kept).split("\n\n"))


def _without_spans(block: str) -> str:
    runs = list(re.finditer(r"`+", block))
    pieces, start, index = [], 0, 0
    while index < len(runs):
        run = runs[index]
        closer = next((k for k in range(index + 1, len(runs)) if len(runs[k].group()) == len(run.group())), None)
        if closer is None:
            index += 1
            continue
        pieces.append(block[start : run.start()])
        start, index = runs[closer].end(), closer + 1
    return "".join(pieces) + block[start:]


def assert_not_rendered(text: str) -> None:
    shown = outside_code(text)
    assert [mark for mark in RENDERED if mark in shown] == [], shown
    # The only HTML is coderefine's own: its collapsed sections and its footer.
    for line in shown.split("\n"):
        if line.lstrip().startswith("<"):
            assert re.fullmatch(r"<details><summary>[\w ()]+</summary>|</details>|<sub>.*</sub>", line.strip()), line


def hostile(**more: Any) -> dict[str, Any]:
    winner = improved(**more)
    winner["iterations"] = [{"origin": "model", "feedback": HOSTILE}]
    winner["best_iteration"] = 0
    return winner


def every_body(done: dict[str, Any], shown: dict[str, list[Span]]) -> dict[str, str]:
    """Each Markdown text a person reads of `done`: the report, GitHub's review (its body, its
    inline comments, and its body when GitHub refuses them), GitLab's issue bodies."""
    review = github.render(done, shown)
    jsonschema.validate(review, review_schema())
    bodies = {"markdown": markdown.render(done), "review": review["body"], "inlined": posting.inlined(review)["body"]}
    bodies.update({f"comment {n}": comment["body"] for n, comment in enumerate(review["comments"])})
    bodies.update({f"gitlab {n}": issue["content"]["body"] for n, issue in enumerate(gitlab.render(done))})
    return bodies


def test_the_models_words_are_quoted_never_rendered_in_any_report() -> None:
    done = document("code_optimization", [hostile()])
    bodies = every_body(done, {"pkg/mod.py": [Span(1, 9)]})
    assert "comment 0" in bodies  # the inline comment is among them
    for name, text in bodies.items():
        assert_not_rendered(text)
        assert len(text) < GITHUB_LIMIT, name
    # A plain sentence stays plain; the rest is one code span, spaced on one line.
    why = next(line for line in bodies["markdown"].split("\n") if line.startswith("Why: "))
    assert why.startswith(
        "Why: Correct: sum() runs the loop in C. ````<details open><summary>Click</summary> <img src="
    )
    assert "\\u202eevil\\u202c zero\\u200bwidth \\x1b[31mred\\x1b[0m #````" in why
    assert why.endswith(" Heading")


def test_a_plain_explanation_reads_as_it_is() -> None:
    assert quoting.inline("Correct: sum() runs the loop in C, in one pass.") == (
        "Correct: sum() runs the loop in C, in one pass."
    )
    assert quoting.inline("Uses\n  `set`\tmembership (O(1)).") == "Uses `` `set` `` membership (O(1))."
    assert quoting.inline("see <b>this</b> at https://a.example now") == "see `<b>this</b> at https://a.example` now"
    assert quoting.inline("1. a list") == "`1.` a list"  # never a list item, were it first on a line


@pytest.mark.parametrize(
    "word",
    [
        *("@team", "#12", "GH-12", "0a1b2c3d", "www.a.example", "mailto:a", ":smile:", "<b>", "[x](y)"),
        *("*x*", "_x_", "~x~", "$x$", "&amp;", "\\x", "a|b", "x.y"),
    ],
)
def test_a_word_that_markdown_or_github_would_render_is_a_code_span(word: str) -> None:
    assert quoting.inline(f"see it: {word} and more") == f"see it: `{word}` and more"


PIECES = [*"ab1 .:/@#<>[]()!*_~`$&|\\-+=\"'%?\n\t", "www.", "https://", "<img src=x>", "GH-1", "deadbee", ":+1:"]
PIECES += ["&amp;", "1. ", "# ", "example.com", "a@b.co", "__x__", "**", "mailto:", "WWW.", "\u202e", "\u200b", "\x1b"]


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_outside_its_code_spans_quoted_text_holds_nothing_markdown_or_github_reads(text: str) -> None:
    shown = outside_code("Why: " + quoting.inline(text))
    assert not re.search(r"[<>\[\]@#*_~$&|\\`\u202e\u200b\x1b]|(?i:www)\.|\.[A-Za-z]|:\S|[A-Za-z]-[0-9]", shown), shown


def test_invisible_and_control_characters_are_shown_as_escapes() -> None:
    assert quoting.inline("a\u202eb c\u200bd") == "`a\\u202eb c\\u200bd`"
    assert quoting.terminal("f\x1b[2J\u2066x\ud800") == "f\\x1b[2J\\u2066x\\ud800"
    assert quoting.name("a\nb`c") == "``a\\nb`c``"
    assert quoting.plain("x <b>\u202e") == "x <b>\\u202e"


def test_a_100000_character_explanation_is_cut_with_a_note() -> None:
    winner = improved()
    winner["iterations"][1]["feedback"] = "slow " + "<img src=x> @team " * 6_000
    bodies = every_body(document("code_optimization", [winner]), {"pkg/mod.py": [Span(1, 9)]})
    for name, text in bodies.items():
        assert len(text) < 10_000, name  # the rest of it is short: the explanation is what was cut
        assert_not_rendered(text)
    why = next(line for line in bodies["comment 0"].split("\n") if line.startswith("Why: "))
    assert why.endswith(quoting.CUT) and len(why) < quoting.MAX_QUOTED + 50


def test_repository_names_are_code_spans_and_a_pipe_keeps_its_table_cell() -> None:
    name = "pkg/<img src=x>|@team`.py"
    done = document("code_optimization", [hostile(file=name)])
    done["skipped"].append({"file": "pkg/y.py", "target": "", "reason": "cannot parse it: <b>@user</b> #123"})
    bodies = every_body(done, {name: [Span(1, 9)]})
    for text in bodies.values():
        assert_not_rendered(text)
    [row] = [line for line in bodies["markdown"].split("\n") if line.startswith("| ``pkg/")]
    assert row.startswith("| ``pkg/<img src=x>\\|@team`.py::total`` | **3.20x**")
    assert len(re.findall(r"(?<!\\)\|", row)) == 5  # four cells
    assert "- `pkg/y.py`: skipped: cannot parse it: `<b>@user</b> #123`" in bodies["markdown"]


def test_what_the_box_says_of_its_symbolic_search_is_quoted_unless_it_is_the_judges_own() -> None:
    winner = hostile()
    winner["metrics"]["symbolic"] = "no symbolic search: the symbolic search stopped: <img src=y> @team"
    text = markdown.render(document("code_optimization", [winner]))
    assert "- No symbolic search: the symbolic search stopped: `<img src=y> @team`." in text
    assert_not_rendered(text)
    winner["metrics"]["symbolic"] = "no difference found by a symbolic search in 3.0 s"
    assert "- No difference found by a symbolic search in 3.0 s." in markdown.render(
        document("code_optimization", [winner])
    )


def test_a_fence_is_longer_than_any_backtick_run_of_the_code() -> None:
    diff = DIFF.replace("+    return sum(xs)\n", "+    return sum(xs)  # ````` `` <img src=x>\n")
    done = document("code_optimization", [hostile(diff=diff)])
    for text in every_body(done, {"pkg/mod.py": [Span(1, 9)]}).values():
        assert_not_rendered(text)
    [comment] = github.render(done, {"pkg/mod.py": [Span(1, 9)]})["comments"]
    assert "``````suggestion\n    return sum(xs)  # ````` `` <img src=x>\n``````" in comment["body"]


def test_code_with_characters_that_do_not_show_says_so() -> None:
    diff = DIFF.replace("+    return sum(xs)\n", '+    return sum(xs)  # "\u202e"\n')
    [comment] = github.render(document("code_optimization", [improved(diff=diff)]), {"pkg/mod.py": [Span(1, 9)]})[
        "comments"
    ]
    assert "The code holds characters that do not show: U+202E RIGHT-TO-LEFT OVERRIDE." in comment["body"]


def test_a_suggestion_too_long_for_an_inline_comment_goes_into_the_body_without_its_patch() -> None:
    lines = "".join(f"+    x{n} = {'1' * 90}\n" for n in range(800))  # 80,000 characters of new code
    diff = DIFF.replace("+    return sum(xs)\n", lines + "+    return sum(xs)\n").replace("-3,4 +3,2", "-3,4 +3,802")
    done = document("code_optimization", [hostile(diff=diff)])
    review = github.render(done, {"pkg/mod.py": [Span(1, 900)]})
    jsonschema.validate(review, review_schema())
    assert review["comments"] == []
    assert "Not inline: its suggestion is too long for an inline comment." in review["body"]
    assert "Its patch is in the report's `coderefine.patch`" in review["body"]
    assert len(review["body"]) < GITHUB_LIMIT
    report = markdown.render(done)
    assert len(report) < GITHUB_LIMIT and "Its diff is in `coderefine.patch`" in report
    assert_not_rendered(report)


def test_a_report_past_the_limit_is_cut_between_lines_its_blocks_closed() -> None:
    winners = [hostile(target=f"f{n}") for n in range(100)]
    for winner in winners:
        winner["iterations"][0]["feedback"] += " @team" * 500  # cut at MAX_QUOTED: 100 of them do not fit
    done = document("code_optimization", winners)
    report = markdown.render(done)
    assert len(report.encode()) < GITHUB_LIMIT and report.rstrip().endswith(limits.CUT_NOTE)
    assert_not_rendered(report)
    assert report.count("<details>") == report.count("</details>")
    review = github.render(done, {})  # none inline: all in the body, then cut
    assert len(review["body"].encode()) < GITHUB_LIMIT and review["body"].rstrip().endswith(limits.CUT_NOTE)
    assert_not_rendered(review["body"])


def test_a_cut_inside_a_code_block_closes_it() -> None:
    text = "<details><summary>Diff</summary>\n\n`````diff\n" + "+x\n" * 1_000 + "`````\n\n</details>\nafter\n"
    cut = limits.fit(text, limit=1_000)
    assert len(cut) <= 1_000 and "after" not in cut
    assert cut.endswith("+x\n`````\n\n</details>\n\n" + limits.CUT_NOTE + "\n")
    assert limits.fit("short\n", limit=1_000) == "short\n"


def test_inline_comments_moved_into_the_body_stay_within_the_limit() -> None:
    comment = {"path": "pkg/mod.py", "line": 6, "side": "RIGHT", "body": "```suggestion\n" + "x = 1\n" * 8_000 + "```"}
    body = posting.inlined({"body": "### coderefine", "event": "COMMENT", "comments": [comment] * 3})["body"]
    assert len(body) < GITHUB_LIMIT and body.rstrip().endswith(limits.CUT_NOTE)
    assert outside_code(body).count("x = 1") == 0  # the open block was closed


def test_terminal_lines_show_escapes_not_controls() -> None:
    winner = improved(file="pkg/\x1b[2Jmod.py", target="total\u202e")
    line = documents.entry_summary(winner)
    assert line.startswith("pkg/\\x1b[2Jmod.py::total\\u202e: 3.20x") and "\x1b" not in line
    draft = Iteration(
        0, "", "", "", Facts(acceptable=False), None, False, "bad \x1b]0;x\x07", Prompt(()), None, Usage(), 1.0
    )
    assert "malformed (bad \\x1b]0;x\\x07)" in reports.progress_line(draft, StopRule())
