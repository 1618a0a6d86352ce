"""Rich output shared by the command line and the notebook: lessons, grids, verdicts and hints as renderables, and the colour ramp."""
