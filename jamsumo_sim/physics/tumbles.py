"""Face changes: a quarter turn about the horizontal axis across the motion, logged as a ``tumble``
event (the closed-form edge mechanics that decide *whether* a die tumbles live in
:mod:`jamsumo_sim.flick`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..die import tumble as turn
from ..events import TUMBLE, Event
from .datatypes import DieRecord

if TYPE_CHECKING:
    from .world import World


def tumble(w: World, d: DieRecord, body_dir: float, cause: str) -> None:
    """Tumble ``d`` towards ``body_dir`` (radians in the die's frame); cause "flick" | "rim" |
    "step" | "impact"."""
    before = d.orientation.top
    d.orientation = turn(d.orientation, body_dir)
    data = {"before": before, "after": d.orientation.top, "cause": cause}
    w.events.append(Event(w.time, TUMBLE, (d.id,), data))
