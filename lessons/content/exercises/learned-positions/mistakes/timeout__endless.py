"""Loops for ever."""
while True:
    pass
