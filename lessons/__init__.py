"""attnpos.lessons: the course (content/) and the rooms that load (course), check (checker), confine (sandbox) and grade (grading) it."""
