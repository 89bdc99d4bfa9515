"""The pygame front end: the play window and the replay viewer (drawing only; no rules or physics)."""

import os

# pygame prints a banner on import unless told not to; the CLI's output stays clean
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
