"""Widgets the screens share: attention grids, the grid pair, heat maps, output strips, lesson blocks."""
