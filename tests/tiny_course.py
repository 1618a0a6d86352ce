"""A minimal valid exercise, for tests that build small courses of their own."""

EXERCISE_TOML = """title = "T"
lesson = 1
instructions = "Do it."
hints = ["a nudge"]
[why]
question = "Why?"
choices = ["a", "b"]
answer = 0
explanations = ["yes", "no"]
[messages]
passed = "Well done."
[advice]
"""
