"""attnpos.lessons: the course content and the code that loads and checks it."""
