"""The course content: it loads, its figures are computed, its code runs, it covers the sources."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from attnpos.core import experiments as ex
from attnpos.lessons.course.cells import run_cell
from attnpos.lessons.course.figures import figure
from attnpos.lessons.course.loader import CourseError, load_course
from attnpos.lessons.course.mathtext import MathError, to_unicode
from attnpos.lessons.course.model import Code, ExerciseRef, PlaygroundLink, Prose
from attnpos.lessons.course.outline import read_outline
from attnpos.lessons.course.scanner import content_dir, exercises_dir, read_course_text
from attnpos.tui.render.lesson_print import lesson_renderable
from tiny_course import EXERCISE_TOML, write_course_file, write_lesson

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

COVERAGE = Path(__file__).with_name("coverage.toml")
SOURCES = {  # the four source lessons in ../shared/seeds
    "000_c5696851a1b59419.txt",
    "001_7e74b29df957bb1e.txt",
    "002_acc919ca0e5906ea.txt",
    "003_4aaac58d5b8e96c3.txt",
}


@pytest.fixture(scope="module")
def course():
    return load_course()


def lesson_text(course, number: int) -> str:
    """Everything a learner reads in a lesson, as plain lower-case text."""
    lesson = course.lesson(number)
    console = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(lesson_renderable(lesson, course, run_code=False))
    extra = [course.exercises[i].instructions + " ".join(course.exercises[i].hints) for i in lesson.exercise_ids]
    # Rich wraps lines; a phrase may straddle a line break.
    return re.sub(r"\s+", " ", " ".join([console.export_text(), *extra])).lower()


def test_lessons_are_numbered_from_one_in_order(course):
    assert [lesson.number for lesson in course.lessons] == list(range(1, len(course.lessons) + 1))
    assert course.title == read_course_text().title and course.title


def test_the_course_text_counts_its_lessons():
    text = read_course_text()
    assert not text.problems
    assert text.opening(4).startswith("Four lessons ") and text.opening(1).startswith("One lesson ")
    # Past twelve too, one way throughout: words to ninety-nine, then digits.
    assert text.opening(13).startswith("Thirteen lessons ") and text.opening(21).startswith("Twenty-one lessons ")
    assert text.opening(40).startswith("Forty lessons ") and text.opening(100).startswith("100 lessons ")


def test_a_broken_course_file_is_reported(tmp_path):
    (tmp_path / "course.toml").write_text('title = "T"\nintroduction = "{lesson} on it"\nsubtitle = "x"\n')
    problems = [message for _, message in read_course_text(tmp_path).problems]
    assert any("'prerequisites'" in p for p in problems) and any("subtitle" in p for p in problems)
    assert any("{lessons}" in p for p in problems)


def outline_of(course) -> list[tuple]:
    """What the outline shows of a fully loaded course: lesson titles, section titles, exercises and their sections."""
    return [
        (
            lesson.number,
            lesson.title,
            tuple(section.title for section in lesson.sections),
            tuple(
                (block.id, course.exercises[block.id].title, index)
                for index, section in enumerate(lesson.sections)
                for block in section.blocks
                if isinstance(block, ExerciseRef)
            ),
        )
        for lesson in course.lessons
    ]


def outline_read(content_dir: Path, exercises_dir: Path) -> list[tuple]:
    return [
        (lesson.number, lesson.title, lesson.sections, tuple((e.id, e.title, e.section) for e in lesson.exercises))
        for lesson in read_outline(content_dir, exercises_dir)
    ]


def test_the_outline_is_what_the_full_loader_reads(course):
    assert outline_read(content_dir(), exercises_dir()) == outline_of(course)


def test_the_outline_and_the_loader_agree_on_headings_in_code_and_a_lesson_without_introduction(tmp_path):
    content, exercises = tmp_path / "content", tmp_path / "exercises"
    content.mkdir()
    write_course_file(content)
    (exercises / "ex").mkdir(parents=True)
    (exercises / "ex" / "exercise.toml").write_text(EXERCISE_TOML)
    (exercises / "ex" / "starter.py").write_text("x = 1  # TODO\n")
    (exercises / "ex" / "solution.py").write_text("x = 1\n")
    write_lesson(
        content,
        "01-a",
        '+++\ntitle = "A"\nsummary = "S"\n+++\nSome introduction.\n\n```python\n## not a heading\n```\n\n'
        '## First\n\nText.\n\n## Second\n\n```{exercise}\nid = "ex"\n```\n',
    )
    write_lesson(content, "02-b", '+++\ntitle = "B"\nsummary = "S"\n+++\n\n## Only\n\nText.\n')
    small = load_course(content, exercises)
    assert outline_read(content, exercises) == outline_of(small)
    assert outline_of(small)[0][2:] == (("Introduction", "First", "Second"), (("ex", "T", 2),))
    assert outline_of(small)[1][2] == ("Only",)


def test_every_lesson_has_two_quizzes(course):
    for lesson in course.lessons:
        assert len(lesson.quizzes) >= 2, lesson.title


def test_exercises_sit_in_their_lessons(course):
    assert course.exercises
    for exercise in course.exercises.values():
        assert exercise.id in course.lesson(exercise.lesson).exercise_ids


def test_every_runnable_block_runs(course):
    blocks = [(lesson.path.name, b) for lesson in course.lessons for s in lesson.sections for b in s.blocks if isinstance(b, Code) and b.runnable]
    assert len(blocks) >= 8
    for name, block in blocks:
        result = run_cell(block.source)
        assert result.ok, f"{name}:{block.line}: {result.error}"
        assert result.output.strip(), f"{name}:{block.line} prints nothing"


# --- figures are computed, never typed -----------------------------------


def test_registry_quotes_the_core():
    assert figure("shuffle.gap").value == ex.shuffle_experiment().gap
    assert figure("offset.gap").value == ex.offset_experiment().gap
    assert figure("twin.max_diff").value == 0.0
    assert figure("sentence.weights").is_matrix


TYPED_FIGURES = [
    r"4\.4\s*(e|×\s*10\^?)\s*-?16",
    r"4\.44089",
    r"3\.49975",
    r"\b3\.50?\b",
    r"2\.375",
    r"0\.788",
    r"8\.589",
    # issue 14's figures: saturation without the 0.5 factor, the causal gap and twins, the ALiBi windows
    # and reversal gaps, the sharpening ratio, the ramp's norms and products, the one-slot readout
    r"\b0\.9[45]\b",
    r"\b0\.65\b",
    r"\b1\.65\b",
    r"\b3\.67\b",
    r"\b3\.2[45]\d*\b",
    r"\b9\.21?\b",
    r"\b1,?1(79|80)\b",
    r"\b141(\.4)?\b",
    r"10\.18",
    r"443\.5",
    r"\b28\.8\b",
    r"\b1\.62\b",
]


@pytest.mark.parametrize("path", sorted(content_dir().glob("*/lesson.md")), ids=lambda p: p.parent.name)
def test_no_computed_figure_is_typed(path):
    text = path.read_text(encoding="utf-8")
    for pattern in TYPED_FIGURES:
        match = re.search(pattern, text)
        assert match is None, f"{path.name} types {match.group(0)!r}: use a {{{{figure}}}} placeholder"


def test_filled_figures_appear_in_the_lessons(course):
    text = lesson_text(course, 1)
    assert format(figure("offset.gap").value, ".2f") in text
    assert str(figure("twin.max_diff").value) in text


# --- coverage of the sources ------------------------------------------------


def coverage_facts():
    if not COVERAGE.exists():
        return []
    return tomllib.loads(COVERAGE.read_text(encoding="utf-8"))["fact"]


def test_coverage_checklist_is_substantial():
    facts = coverage_facts()
    assert len(facts) >= 50
    assert {f["source"] for f in facts} == SOURCES


@pytest.fixture(scope="module")
def read_lesson(course):
    """``lesson_text`` of this module's course, each lesson drawn once for every test that reads it."""
    return functools.cache(functools.partial(lesson_text, course))


@pytest.mark.parametrize("fact", coverage_facts(), ids=lambda f: f["fact"][:50])
def test_fact_is_covered(read_lesson, fact):
    text = read_lesson(fact["lesson"])
    for phrase in fact["phrases"]:
        assert phrase.lower() in text, f"lesson {fact['lesson']} lacks {phrase!r} ({fact['fact']})"


# --- statements a review retracted (issue 20) --------------------------------

RETRACTED = {
    "a gpt needs a deliberate position signal": "sense of position deliberately",
    "every model relies on an explicit signal": "relies on getting position in, by an explicit signal",
    "explicit signals are easier and more reliable": "easier to learn and more reliable",
    "alibi is the one shown to extrapolate": "shown to extrapolate well",
    "sinusoidal products make the score relative": "their products depend on the offset alone",
    "temperature multiplies the scores": "the factor that multiplies the scores before the softmax (1/√d_k by default). larger",
    "alibi's window lets it run longer as it is": "lets it run longer as it is",
    "a longer input looks like a shorter one": "looks like a shorter one",
    "every extension is fine-tuned": "each is followed by a short fine-tuning",
    "the ramp always piles onto a late slot": "piles onto one late slot",
    "invariance is the stronger statement": "stronger statement",
    "the outputs cannot reveal the order": "cannot reveal whether",
    "a value width d_v of its own": "of width dᵥ",
    "the score sees the offset only": "the score sees the offset only",
    "scores depend on the offset only": "scores depend on the offset only",
    "the rest of the course has no mask": "the rest of this course studies attention without a mask",
    "the variance argument without independence": "if the entries of a query and a key have mean 0",
    # issue 36, the third review of lessons 5–10: 3 wrong, 4 misleading, 14 imprecise
    "packed pretraining leaves the last rows least trained": "are the least trained",
    "kazemnejad et al. compared a learned table": "better than learned absolute positions",
    "yarn sharpens the logits by 0.1 ln s + 1": "sharpens the softmax by",
    "the pi fit's blow-up printed from a singular solve": "past what float64 can resolve",
    "a rope head keeps attending 3 back at any t": "keeps doing it at any",
    "the symmetric alibi is only a mis-drawing": "explanations sometimes draw",
    "the symmetric alibi is not the paper's (lesson 4)": "sometimes drawn in explanations",
    "an untied table's rows, said of any table": "the other rows do not take part in the forward pass",
    "yarn's ramp is over the pair index, as if in the paper": "blends the pairs between with a linear ramp",
    "yarn's factor explained as a fact": "otherwise flatten the attention",
    "ntk's last pair divided by exactly the stretch needed": "the stretch the new length needs,",
    "rope's relative property, exact whatever the precision": ", which is rounding: the angles",
    "the unmasked published bias penalises keys ahead": "penalises keys ahead of i too",
    "no trained 12-head alibi model uses the naive slopes": "not what any trained 12-head",
    "rope constrains w_q w_kᵀ": "as rope arranges",
    "√d_model makes the tokens the same size": "the same size as the positions",
    "the position signal dwarfs the tokens, not only at initialisation": "dwarfs the token signal",
    "the larger term dominates every dot product": "dominates every dot product",
    "a learned table cannot be extended": "cannot even be asked",
    "a learned table stops dead at max_len": "stops dead at max_len",
    "a learned table learns every offset separately": "has to learn separately, at every position",
    "every head's score is linear in its parameters": "the score is linear in the head's parameters",
    "c = 8 frequencies fall to nearly 1/10000": "from 1 to nearly 1/10000",
    "the encoding alone takes a model from 4k to 1m tokens": "a large part of the difference between",
    "tensor2tensor's layout is only another order": "the same channels in another order",
}


@pytest.fixture(scope="module")
def everything_read(course, read_lesson) -> list[str]:
    """Every lesson as printed, the glossary, the README and the exercises' text: drawn once for all the claims below."""
    texts = [read_lesson(lesson.number) for lesson in course.lessons]
    texts += [re.sub(r"\s+", " ", term.meaning).lower() for term in course.glossary]
    texts.append(re.sub(r"\s+", " ", (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")).lower())
    # the exercises' briefs, hints and checker messages, as written
    texts += [re.sub(r"\s+", " ", brief.read_text(encoding="utf-8")).lower() for brief in sorted(exercises_dir().glob("*/exercise.toml"))]
    return texts


@pytest.mark.parametrize("claim", sorted(RETRACTED))
def test_retracted_statement_does_not_come_back(everything_read, claim):
    phrase = RETRACTED[claim]
    assert not any(phrase in text for text in everything_read), f"{claim}: {phrase!r} is back"


# --- figures that do not depend on rounding ----------------------------------


def test_lesson_10_reads_the_same_whatever_the_blas_threads():
    """Lesson 10's fit once printed figures set by rounding; now one BLAS thread or the default gives the same text."""

    def show(environment: dict[str, str]) -> str:
        code = "import sys; from attnpos.tui.main import main; sys.exit(main(['lessons', 'show', '10']))"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment)
        return result.stdout

    default = {key: value for key, value in os.environ.items() if not key.endswith("_NUM_THREADS")}
    one_thread = default | {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    shown = show(default)
    assert "max |fit| on [L, 2L]" in shown
    assert shown == show(one_thread)


# --- reading in a terminal ---------------------------------------------------


def test_lesson_one_fits_80_columns(course):
    console = Console(width=80, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(lesson_renderable(course.lesson(1), course))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("Attention" in line for line in lines[:3])


def test_math_renders_to_unicode(course):
    assert to_unicode(r"\alpha_{ij}") == "αᵢⱼ"
    assert to_unicode(r"\frac{1}{\sqrt{d_k}}") == "1/√dₖ"
    prose = " ".join(b.markdown for lesson in course.lessons for s in lesson.sections for b in s.blocks if isinstance(b, Prose))
    assert "\\" not in re.sub(r"`[^`]*`", "", prose), "a LaTeX command survived rendering"


@pytest.mark.parametrize("latex", [r"\frac{a}{b", r"x \nosuchcommand y", r"a_{b"])
def test_broken_math_is_an_error(latex):
    with pytest.raises(MathError):
        to_unicode(latex)


# --- malformed lessons give file:line errors ---------------------------------


GOOD_EXERCISE = {
    "exercise.toml": EXERCISE_TOML,
    "starter.py": "x = 1  # TODO\n",
    "solution.py": "x = 2\n",
}


def make_course(tmp_path: Path, lesson: str, exercise_files=GOOD_EXERCISE) -> tuple[Path, Path]:
    content, exercises = tmp_path / "content", tmp_path / "exercises"
    content.mkdir()
    write_course_file(content)
    write_lesson(content, "01-test", lesson)
    folder = exercises / "ex-one"
    folder.mkdir(parents=True)
    for name, text in exercise_files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return content, exercises


HEADER = '+++\ntitle = "A"\nsummary = "B"\n+++\n'
PLACED = '\n```{exercise}\nid = "ex-one"\n```\n'


def load_problems(tmp_path, lesson, exercise_files=GOOD_EXERCISE):
    with pytest.raises(CourseError) as raised:
        load_course(*make_course(tmp_path, lesson, exercise_files))
    return [str(p) for p in raised.value.problems]


def test_a_good_tiny_course_loads(tmp_path):
    course = load_course(*make_course(tmp_path, HEADER + "## One\n\nText {{offset.gap:.2f}} and $\\alpha$.\n" + PLACED))
    prose = course.lesson(1).sections[0].blocks[0]
    assert prose.markdown == f"Text {figure('offset.gap').value:.2f} and α."


@pytest.mark.parametrize(
    "body, line, words",
    [
        ("## S\n\n```{bogus}\nx = 1\n```\n", 11, "unknown directive"),
        ("## S\n\nthe gap is {{no.such.figure}}\n", 11, "unknown figure"),
        ("## S\n\nbroken $\\frac{a}{b$ math\n", 11, "broken math"),
        ("## S\n\n$$\n\\nosuch{x}\n$$\n", 11, "broken math"),
        ('## S\n\n```{grid}\nfigure = "offset.gap"\n```\n', 11, "not a matrix"),
        ('## S\n\n```{quiz}\nid = "q"\nquestion = "?"\nchoices = ["a"]\nanswer = 3\nexplanations = ["x"]\n```\n', 11, "answer 3"),
        ("## S\n\n```python\nprint(1)\n", 11, "never closed"),
        ('## S\n\n```{playground}\nsentence = "a b"\nsignal = "nope"\n```\n', 11, "unknown signal"),
        ('## S\n\n```{playground}\nsentence = "a b"\norder = [0, 0]\nsignal = "rope"\n```\n', 11, "order must list"),
        ('## S\n\n```{playground}\nsignal = "rope"\n```\n', 11, "needs 'sentence'"),
    ],
)
def test_malformed_lessons_name_file_and_line(tmp_path, body, line, words):
    problems = load_problems(tmp_path, HEADER + PLACED + body)
    assert any(p.startswith(f"{tmp_path / 'content' / '01-test' / 'lesson.md'}:{line}:") and words in p for p in problems), problems


def test_a_heat_map_needs_short_column_labels(tmp_path, monkeypatch):
    from attnpos.lessons.course import figures

    long_labels = figures.Figure("test.long", "a matrix with long column names", lambda: np.zeros((2, 2)), columns=lambda: ["abc", "d"])
    monkeypatch.setitem(figures.registry().figures, "test.long", long_labels)
    content, exercises = make_course(tmp_path, HEADER + '## S\n\n```{heatmap}\nfigure = "test.long"\n```\n' + PLACED)
    with pytest.raises(CourseError) as raised:
        load_course(content, exercises)
    assert "column label longer than 2 characters" in str(raised.value.problems[0])


def test_a_playground_directive_loads(tmp_path):
    body = '## S\n\n```{playground}\nsentence = "the cat sat"\norder = [2, 0, 1]\nsignal = "alibi"\ncaption = "Gap {{offset.gap:.2f}}"\n```\n'
    course = load_course(*make_course(tmp_path, HEADER + PLACED + body))
    link = course.lesson(1).sections[-1].blocks[-1]
    assert isinstance(link, PlaygroundLink)
    assert (link.sentence, link.order, link.signal) == ("the cat sat", (2, 0, 1), "alibi")
    assert link.caption == f"Gap {figure('offset.gap').value:.2f}"


def test_lesson_four_links_into_the_playground(course):
    links = [b for s in course.lesson(4).sections for b in s.blocks if isinstance(b, PlaygroundLink)]
    assert {link.signal for link in links} >= {"sinusoidal", "rope", "alibi"}
    assert all(link.order == ex.ORDER_B_PERM for link in links)


def test_glossary_covers_the_course(course):
    terms = {t.term for t in course.glossary}
    assert len(terms) == len(course.glossary) >= 20
    assert {"causal mask", "permutation-equivariant", "permutation-invariant", "soft window"} <= terms
    numbers = {lesson.number for lesson in course.lessons}
    assert all(t.lesson in numbers and "{{" not in t.meaning for t in course.glossary)


def test_glossary_problems_name_file_and_line(tmp_path):
    content, exercises = make_course(tmp_path, HEADER + PLACED)
    (content / "glossary.toml").write_text('[[term]]\nterm = "x"\nmeaning = "y"\nlesson = 1\n\n[[term]]\nterm = "z"\nmeaning = "w"\nlesson = 9\n')
    with pytest.raises(CourseError) as raised:
        load_course(content, exercises)
    assert [str(p) for p in raised.value.problems] == [f"{content / 'glossary.toml'}:6: 'z' names lesson 9, which the course does not have"]


def test_exercise_without_solution(tmp_path):
    files = {k: v for k, v in GOOD_EXERCISE.items() if k != "solution.py"}
    problems = load_problems(tmp_path, HEADER + PLACED, files)
    assert any("solution.py" in p and "cannot read" in p for p in problems), problems


def test_missing_front_matter(tmp_path):
    problems = load_problems(tmp_path, "## no front matter\n")
    assert any(":1:" in p and "front matter" in p for p in problems)


def test_every_kind_of_block_has_one_dispatch(course):
    """The reader and `lessons show` both go through render_block; mypy holds it exhaustive, and at run time a stranger raises."""
    from attnpos.lessons.course.model import render_block

    kinds = {type(b).__name__ for lesson in course.lessons for s in lesson.sections for b in s.blocks}
    assert kinds == {"Prose", "Math", "Code", "Grid", "Heatmap", "Quiz", "ExerciseRef", "PlaygroundLink"}
    with pytest.raises(TypeError, match="no rendering for str"):
        render_block("not a block", object())  # type: ignore[arg-type]


FIGURES_HEAD = "from attnpos.lessons.course.figures import Experiment, Figure\n\nEXPERIMENTS = ()\n"


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (
            FIGURES_HEAD + "FIGURES = (\n    Figure('a.b', 'a', lambda: 1),\n    undefined_name,\n)\n",
            None,
            "01-lesson-1/figures.py:6: figures.py fails: NameError: name 'undefined_name' is not defined",
        ),
        (
            FIGURES_HEAD + "FIGURES = (Figure('a.b', 'a', lambda: 1),)\n",
            FIGURES_HEAD + "FIGURES = (Figure('a.b', 'again', lambda: 2),)\n",
            "02-lesson-2/figures.py:1: figure 'a.b' is also registered in 01-lesson-1/figures.py",
        ),
        ("EXPERIMENTS = ()\n", None, "01-lesson-1/figures.py:1: figures.py defines EXPERIMENTS and FIGURES"),
        (FIGURES_HEAD + "FIGURES = ('a.b',)\n", None, "figures.py: EXPERIMENTS holds Experiment entries and FIGURES Figure entries, not 'a.b'"),
    ],
)
def test_a_lessons_figures_list_is_checked_at_its_file_and_line(tmp_path, monkeypatch, first, second, expected):
    from attnpos.lessons.course import scanner
    from tiny_course import write_tiny_course

    root = tmp_path / "course"
    write_tiny_course(root)
    (root / "01-lesson-1" / "figures.py").write_text(first, encoding="utf-8")
    if second is not None:
        (root / "02-lesson-2" / "figures.py").write_text(second, encoding="utf-8")
    monkeypatch.setattr(scanner, "COURSE_ROOT", root)
    with pytest.raises(CourseError) as raised:
        load_course()
    assert any(expected in str(problem) for problem in raised.value.problems), raised.value.problems


def test_no_section_title_shows_raw_latex(attnpos):
    """Lesson 5 showed `$\\sqrt{d_{model}}$` in its header, the outline, the palette and lessons show."""
    from attnpos.lessons.course.loader import load_course
    from attnpos.lessons.course.outline import read_outline

    titles = [title for lesson in read_outline() for title in lesson.sections]
    titles += [section.title for lesson in load_course().lessons for section in lesson.sections]
    assert "Why the Transformer multiplies by √d_(model)" in titles
    assert not [title for title in titles if "$" in title or "\\" in title]
    assert "$" not in attnpos("lessons", "show", "5").stdout
