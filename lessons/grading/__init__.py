"""Grading: a class's submissions read, checked and scored (grades), and the reports every format gets (reports)."""
