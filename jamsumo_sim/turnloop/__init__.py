"""The shared turn loop on which JamSumo and all four card games run.

Seats, tokens, phases and rounds as data (:mod:`.seating`); the State protocol (:mod:`.state`);
chance nodes (:mod:`.chance`); agents (:mod:`.agents`); the play driver (:mod:`.driver`);
restoring and saving (:mod:`.serialize`); the conformance kit (:mod:`.conformance`).
"""

from jamsumo_sim.turnloop.actions import CHANCE, SIMULTANEOUS, TERMINAL, Action
from jamsumo_sim.turnloop.agents import (
    Agent,
    ConsoleAgent,
    HeuristicAgent,
    QuitRequest,
    RandomAgent,
    SaveRequest,
    SeatView,
)
from jamsumo_sim.turnloop.chance import Chance, Finite, Shuffle
from jamsumo_sim.turnloop.driver import MatchEvent, MatchResult, play, seat_view, step
from jamsumo_sim.turnloop.keys import rng_for
from jamsumo_sim.turnloop.registry import game_names, get_game, register_game
from jamsumo_sim.turnloop.seating import (
    Direction,
    PhaseSpec,
    Repeat,
    RoundSpec,
    Seating,
    TurnTracker,
)
from jamsumo_sim.turnloop.serialize import (
    read_json_file,
    replay_history,
    state_from_json,
    write_json_atomic,
)
from jamsumo_sim.turnloop.state import Game, LogEntry, State

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "Agent",
    "Chance",
    "ConsoleAgent",
    "Direction",
    "Finite",
    "Game",
    "HeuristicAgent",
    "LogEntry",
    "MatchEvent",
    "MatchResult",
    "PhaseSpec",
    "QuitRequest",
    "RandomAgent",
    "Repeat",
    "RoundSpec",
    "SaveRequest",
    "SeatView",
    "Seating",
    "Shuffle",
    "State",
    "TurnTracker",
    "game_names",
    "get_game",
    "play",
    "read_json_file",
    "register_game",
    "replay_history",
    "rng_for",
    "seat_view",
    "state_from_json",
    "step",
    "write_json_atomic",
]
