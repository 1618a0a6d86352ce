"""Lesson 7's experiment and figures: a learned position table, sized and trained."""

from __future__ import annotations

from attnpos.core import cure_experiments as cx
from attnpos.core import learned_training as lt
from attnpos.lessons.course.figures import Experiment, Figure, channels, positions, result


def learned():
    return result("learned")


EXPERIMENTS = (Experiment("learned", "A learned position table trained on lengths 2–8: rows 8 on never move", cx.learned_experiment),)

FIGURES = (
    Figure("learned.gpt2", "GPT-2's wpe parameters, 1024 × 768", lambda: learned().gpt2_wpe),
    Figure("learned.bert", "BERT-base's position table, 512 × 768", lambda: learned().bert_wpe),
    Figure("learned.roberta", "RoBERTa's, 514 × 768", lambda: learned().roberta_wpe),
    Figure("learned.rows", "rows of the trained table", lambda: lt.TABLE_ROWS),
    Figure("learned.width", "channels of the trained table", lambda: lt.TABLE_WIDTH),
    Figure("learned.steps", "gradient steps", lambda: learned().steps),
    Figure("learned.batch", "sequences per step", lambda: lt.BATCH),
    Figure("learned.shortest", "shortest training sequence", lambda: lt.SHORTEST),
    Figure("learned.longest", "longest training sequence", lambda: lt.LONGEST),
    Figure("learned.rate", "learning rate", lambda: lt.LEARNING_RATE),
    Figure("learned.untouched", "rows 8 on are bit-identical to their initial values", lambda: learned().untouched),
    Figure("learned.gradients", "token gradients of rows 0 … 8", lambda: ", ".join(f"{n:,}" for n in learned().gradients[: lt.LONGEST + 1])),
    Figure("learned.trained_error", "largest row error among trained rows", lambda: learned().trained_error),
    Figure("learned.untrained_error", "smallest row error among untrained rows", lambda: learned().untrained_error),
    Figure("learned.first_error", "row 0's error", lambda: float(learned().row_error[0])),
    Figure("learned.before", "the table before training", lambda: learned().before, positions(lt.TABLE_ROWS), None, channels(lt.TABLE_WIDTH)),
    Figure("learned.after", "the table after training", lambda: learned().after, positions(lt.TABLE_ROWS), None, channels(lt.TABLE_WIDTH)),
    Figure("learned.target", "the vectors slot t is asked to hold", lambda: learned().target, positions(lt.TABLE_ROWS), None, channels(lt.TABLE_WIDTH)),
)
