"""What the window plays: a session turns the match (or a free-play World) into things to show and do.

The window asks a session who is to move, which dice that seat may flick, what is in their hand, what a
gesture means as an action, whether it is legal (and why not), for the World to animate
(``preview``), and finally to ``commit`` the action.  Rules live in the rules module; a session only
relays.  :class:`SandboxSession` is free play on a bare World (any die, no scoring); the match session
lives in :mod:`jamsumo_sim.ui.match_session`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from jamsumo_sim.physics.board import BoardSpec
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.ui.animator import states_of
from jamsumo_sim.ui.panel import PanelInfo, PlayerRow, Table
from jamsumo_sim.ui.theme import Theme

COLOUR_NAMES = ("red", "blue", "green", "yellow")


@dataclass(frozen=True)
class Placement:
    """A die from hand put on a JAM zone, waiting to be flicked (one action with the flick)."""

    die: str
    place: str
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Shot:
    """A committed turn: the action and the world state it was animated from (for `R`)."""

    seat: int | None
    action: Any
    before: Any  # a World copy with the action applied but not yet stepped


class Session:
    """The interface the window uses; see the module docstring."""

    board: BoardSpec
    params: PhysicsParams
    mode: str = "sandbox"

    # --- what is going on --------------------------------------------------------------------
    def world(self) -> Any:
        """The World at rest between shots."""
        raise NotImplementedError

    def players(self) -> int:
        raise NotImplementedError

    def to_move(self) -> int | None:
        """The seat to move, or None when nobody can (the match is over)."""
        raise NotImplementedError

    def view_side(self, seat: int) -> int:
        """The board side (0..3) at which ``seat`` sits: the view turns it to the bottom."""
        return seat % 4

    def is_human(self, seat: int) -> bool:
        return True

    def finished(self) -> bool:
        return False

    def die_colour_name(self, die_id: str) -> str:
        for name in COLOUR_NAMES:
            if die_id.startswith(name):
                return name
        return "red"

    def seat_colour_name(self, seat: int) -> str:
        return COLOUR_NAMES[seat % len(COLOUR_NAMES)]

    def flickable(self, seat: int) -> list[str]:
        """Ids of dice on the board that ``seat`` may flick now."""
        raise NotImplementedError

    def hand(self, seat: int) -> list[str]:
        """Ids of ``seat``'s dice in hand that may be placed on a JAM zone (Jam only)."""
        return []

    def hand_face(self) -> int:
        return 4

    # --- turning a gesture into a move --------------------------------------------------------
    def make_action(self, seat: int, flick: Any, placement: Placement | None) -> Any:
        raise NotImplementedError

    def why_illegal(self, seat: int, action: Any) -> str | None:
        """None if legal, else the reason in words."""
        raise NotImplementedError

    def is_pass(self, action: Any) -> bool:
        """True for a move that flicks nothing (nothing to animate)."""
        return False

    def pass_action(self, seat: int) -> Any | None:
        """The pass move if ``seat`` may pass now (no fair flick is possible), else None."""
        return None

    def preview(self, action: Any) -> Any:
        """A copy of the world with the action applied but not yet stepped (the window animates it)."""
        raise NotImplementedError

    def commit(self, action: Any, animated: Any | None = None) -> list[str]:
        """Apply the action for real; returns new log lines.  ``animated`` is the stepped preview."""
        raise NotImplementedError

    def predicted_outcome(self, world: Any, seat: int, die: str, events: list[Any]) -> list[str]:
        """What the rules would do to ``die`` after a previewed shot came to rest in ``world``.

        A match asks its rules (``shot_outcome``, pure); free play has no rules, so only where the
        physics put the die (off the board, in the hole) is said.
        """
        outcome = getattr(getattr(self, "state", None), "shot_outcome", None)
        if outcome is not None:
            return [line for d, _, line in outcome(world, seat, die, events) if d == die]
        status = world.state(die).status
        if status == "off_board":
            return [f"{die} would go off the board"]
        if status == "in_hole":
            return [f"{die} would drop into the hole"]
        return []

    def good_news(self, world: Any, die: str) -> bool:
        """The previewed die ends where its owner wants it: dropped into the hole in Jam (said in
        the window as good news, not as a warning)."""
        mode = getattr(getattr(self, "state", None), "mode", None)
        return mode == "jam" and world.state(die).status == "in_hole"

    # --- undo (free play and practice) ----------------------------------------------------------
    def can_undo(self) -> bool:
        """True when the last shot may be taken back (free play; a match in practice mode)."""
        return False

    def undo_offered(self) -> bool:
        """Undo is part of this kind of play at all (free play, practice): the help lists U."""
        return True

    def undo(self) -> bool:
        """Take the last shot back; False if there is nothing to undo."""
        return False

    def why_no_undo(self) -> str:
        """One line for the panel when :meth:`undo` refused."""
        return "Undo is only for free play and practice matches."

    def bot_action(self) -> Any:
        """The bot's move for the seat to move, computed here and now (``bot_task()()``)."""
        return self.bot_task()()

    def bot_task(self) -> Callable[[], Any]:
        """Prepare the move of the bot to move, on the window's thread: a function that may then run
        on another thread because it uses only its own copy of the match, never the live one."""
        raise NotImplementedError("this session has no bots")

    def position_key(self) -> Hashable:
        """Changes whenever the match moves on (a bot's answer to an older position is dropped)."""
        return None

    def advance_automatic(self) -> list[str]:
        """Apply any moves nobody chooses (chance: the round-marker roll-off); returns log lines."""
        return []

    # --- showing it ---------------------------------------------------------------------------
    def panel(self, theme: Theme) -> PanelInfo:
        raise NotImplementedError

    def table(self, theme: Theme) -> Table | None:
        return None

    def log(self) -> list[str]:
        return []

    # --- saving -------------------------------------------------------------------------------
    def save_data(self) -> dict[str, Any] | None:
        """JSON-able data to autosave and resume (None: nothing worth saving)."""
        return None

    def save_replay(self, path: str) -> str:
        raise NotImplementedError("this session cannot write replay files")


class SandboxSession(Session):
    """Free play on a bare World: every die may be flicked, nothing is scored.

    The window falls back to this while the rules module is missing; it is also handy for trying shots.
    """

    mode = "sandbox"

    def __init__(
        self, board: BoardSpec, params: PhysicsParams, seed: int = 0, seats: int = 4
    ) -> None:
        from jamsumo_sim.world import World

        self.board = board
        self.params = params
        self.seats = seats
        self._world = World(board, params)
        self._undo: list[Any] = []  # worlds before each shot (free play may take shots back)
        self._log: list[str] = ["Free play: flick any die."]
        self._shots = 0
        self.seed = seed
        for seat in range(seats):
            spots = board.sumo_start_positions(seat % len(board.sumo_areas), params.die_size, 6)
            for k, (x, y) in enumerate(spots, 1):
                self._world.add_die(f"{COLOUR_NAMES[seat]}{k}", x, y, 0.0, face=3)

    def world(self) -> Any:
        return self._world

    def players(self) -> int:
        return self.seats

    def to_move(self) -> int | None:
        return 0

    def view_side(self, seat: int) -> int:
        return 0

    def flickable(self, seat: int) -> list[str]:
        return [s.id for s in states_of(self._world).values() if s.status == "on_board"]

    def make_action(self, seat: int, flick: Any, placement: Placement | None) -> Any:
        from jamsumo_sim.physics.flick import Flick

        return Flick(flick.die, flick.direction, flick.impulse, flick.offset, flick.height)

    def why_illegal(self, seat: int, action: Any) -> str | None:
        return self._world.check_flick(action)

    def preview(self, action: Any) -> Any:
        w = self._world.copy()
        w.apply_flick(action)
        return w

    def commit(self, action: Any, animated: Any | None = None) -> list[str]:
        self._undo = [*self._undo[-19:], self._world.copy()]
        if animated is not None:
            self._world = animated
        else:
            self._world.apply_flick(action)
            self._world.run_until_rest(self.params_max_time())
        self._shots += 1
        lines = [
            f"Shot {self._shots}: {action.die} flicked at {action.impulse / self.params.die_mass:.2f} m/s"
        ]
        self._log.extend(lines)
        return lines

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._world = self._undo.pop()
        self._shots -= 1
        self._log.append("Last shot taken back.")
        return True

    def why_no_undo(self) -> str:
        return "Undo: nothing to take back yet."

    def params_max_time(self) -> float:
        return 30.0

    def panel(self, theme: Theme) -> PanelInfo:
        counts: dict[str, int] = {}
        for s in states_of(self._world).values():
            if s.status == "on_board":
                name = self.die_colour_name(s.id)
                counts[name] = counts.get(name, 0) + 1
        rows = tuple(
            PlayerRow(i, name.title(), theme.dice_colour(name), 0, counts.get(name, 0), "–")
            for i, name in enumerate(COLOUR_NAMES[: self.seats])
        )
        return PanelInfo(
            title="Free play",
            round_text=f"{self._shots} shots",
            turn_text="Flick any die",
            players=rows,
            log=tuple(self._log[-40:]),
        )

    def log(self) -> list[str]:
        return list(self._log)
