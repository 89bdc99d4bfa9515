"""Regressions found by playing: each replays a recorded piece of a match that once failed."""

from __future__ import annotations

import json
from pathlib import Path

from jamsumo_sim.turnloop import state_from_json

DATA = Path(__file__).parent / "data"


def test_dice_returning_to_play_do_not_confuse_the_world() -> None:
    """The 11th move of this JamSumo match re-adds dice after others left the board.

    Chipmunk's body array then grew in place, and the world's numpy view over it kept its old
    size (ValueError: shapes (5,) and (6,)). Replaying the recorded moves must work and leave
    every die's reported position equal to its body's.
    """
    data = json.loads((DATA / "world_grows_in_place.json").read_text())
    state = state_from_json(data)
    assert len(state.history) == len(data["history"])
    world = state.world
    for die in world.states():
        record = world._dice[die.id]
        if record.body is not None:
            assert (die.x, die.y) == (record.body.position.x, record.body.position.y)
