"""The window's files: the autosave after every shot, `S` replay files, and the answer to the offer
to resume an autosaved match.  Failures become a panel message, never a crash."""

from __future__ import annotations

import time
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.ui import autosave as autosave_file


def autosave(app: Any) -> None:
    if not app.autosave_enabled:
        return
    if app.resume_offer is not None:
        return  # the saved match stays as it is until the person has answered the offer
    data = app.session.save_data()
    if data is None:
        return
    if app.stories:  # the "what was hit" lines, so they survive a resume
        data = {**data, "stories": [[n, line] for n, line in app.stories]}
    try:
        autosave_file.save(data)
        app.autosave_error = None
    except (UserError, OSError) as exc:
        app.autosave_error = str(exc)
        app.message = f"Autosave failed: {exc}"


def save_replay(app: Any) -> None:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = app.replay_dir / f"jamsumo-{app.session.mode}-{stamp}.json"
    try:
        app.session.save_replay(str(path))
        # the file name only: a whole path does not fit the panel (the folder is the cwd or the
        # one given on the command line)
        app.message = f"Replay saved: {path.name}"
    except (UserError, NotImplementedError, OSError, ImportError) as exc:
        app.message = f"Cannot save a replay: {exc}"


def answer_resume(app: Any, yes: bool) -> None:
    """Y: play the saved match on; N: move the saved file aside and play the new match."""
    offer, app.resume_offer = app.resume_offer, None
    assert offer is not None
    _, make = offer
    if yes:
        app.session = make()
        app.stories = list(getattr(app.session, "saved_stories", []))
        app.message = "Resumed the saved match."
        return
    try:
        moved = autosave_file.archive()
        app.message = f"Saved match kept as {moved.name}" if moved else ""
    except UserError as exc:
        # it cannot be moved aside: keep it, and do not overwrite it with this match
        app.autosave_enabled = False
        app.message = f"{exc}; this match will not be autosaved"
