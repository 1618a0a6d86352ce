"""The writer's room: `attnpos lessons --check` (validation: every lesson, block and exercise script) and the scaffold of `attnpos new`."""
