"""Checking learners ' answers: running them confined, and judging what they computed."""
