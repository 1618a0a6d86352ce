"""The course: lesson and exercise folders read into a model, its outline, figures, glossary, and the learner's progress."""
