"""The window's view of a Jam / Sumo / JamSumo match: relays between the rules' MatchState and the window.

Legality, scoring and the log come from the rules; the bots are the game's own agents fed through the
turn loop's ``seat_view``; shots are animated from ``state.preview(action)`` and then applied with
``state.apply_action(action)`` (the same deterministic result; a mismatch is logged, never hidden).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.rules import scoring
from jamsumo_sim.turnloop import CHANCE, State, seat_view
from jamsumo_sim.turnloop.driver import chance_rng, seeded_outcome
from jamsumo_sim.ui.panel import PanelInfo, PlayerRow, Table
from jamsumo_sim.ui.session import Placement, Session
from jamsumo_sim.ui.theme import Theme

HUMAN = "human"
UNDO_DEPTH = 20  # shots a practice match can take back (each keeps a clone of the match)


class MatchSession(Session):
    """A match in progress with a list of seat kinds (``human`` or a bot name such as ``planner``)."""

    def __init__(self, state: State, seats: Sequence[str]) -> None:
        self.state: Any = state
        self.seats = list(seats)
        self.game = state.game
        self.board = state.board
        self.params = state.physics
        bots = self.game.bots()
        self.agents: dict[int, Any] = {}
        self.saved_stories: list[tuple[int, str]] = []  # "what was hit" lines of a resumed match
        for seat, spec in enumerate(self.seats):
            kind, _, level = spec.partition(":")
            if kind != HUMAN and kind in bots:
                options = {"level": level} if level else {}
                self.agents[seat] = bots[kind](seat, self.game, **options)
        self._rounds_seen = len(state.results)
        self._pending_table: Table | None = None
        self.mismatches = 0
        # practice only: (seat, state before its move, rounds seen, pending table), oldest first
        self._undo: list[tuple[int | None, Any, int, Table | None]] = []

    @property
    def mode(self) -> str:  # type: ignore[override]
        return str(self.state.mode)

    # --- what is going on --------------------------------------------------------------------
    def world(self) -> Any:
        return self.state.world

    def players(self) -> int:
        return int(self.state.num_players)

    def to_move(self) -> int | None:
        p = self.state.current_player()
        return p if p >= 0 else None

    def view_side(self, seat: int) -> int:
        from jamsumo_sim.rules.seats import board_side

        return board_side(seat, self.players())

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    def finished(self) -> bool:
        return bool(self.state.is_terminal())

    def flickable(self, seat: int) -> list[str]:
        return list(self.state.on_board(seat))

    def hand(self, seat: int) -> list[str]:
        return list(self.state.in_hand(seat)) if self.state.mode == "jam" else []

    # --- moves ---------------------------------------------------------------------------------
    def make_action(self, seat: int, flick: Any, placement: Placement | None) -> Any:
        from jamsumo_sim.rules.flick_actions import flick_action

        if placement is not None:
            return flick_action(
                placement.die,
                flick.direction,
                flick.impulse,
                flick.offset,
                flick.height,
                place=placement.place,
                px=placement.x,
                py=placement.y,
                pangle=placement.angle,
            )
        return flick_action(flick.die, flick.direction, flick.impulse, flick.offset, flick.height)

    def why_illegal(self, seat: int, action: Any) -> str | None:
        if self.state.is_legal(seat, action):
            return None
        return self.state.why_illegal(seat, action)

    def preview(self, action: Any) -> Any:
        """The shot as aimed (what a shot preview may show: never the hand's coming error)."""
        return self.state.preview(action)

    def shot_world(self, action: Any) -> Any:
        """The shot to animate: with execution noise, the flick as the hand executes it — the
        outcome the match generator draws next, which :meth:`commit` applies too."""
        return self.state.preview(action, self.state.next_execution())

    def is_pass(self, action: Any) -> bool:
        """Nothing to animate: a pass, or a Sumo set-up (the dice are simply placed)."""
        from jamsumo_sim.rules.flick_actions import PASS
        from jamsumo_sim.rules.setup import is_setup

        return action == PASS or is_setup(action)

    # --- the Sumo opening (ui/placement.py) ----------------------------------------------------
    def setting_up(self) -> int | None:
        """The seat choosing its corner and placing its dice, or None."""
        return self.state.setting_up()

    def free_corners(self) -> list[str]:
        return [a.name for a in self.board.sumo_areas if a.name not in self.state.corners]

    def suggested_setup(self, seat: int, corner: str) -> list[Any]:
        """A starting arrangement in ``corner`` for the window (world poses, dice 1..6)."""
        from jamsumo_sim.rules import setup

        area = self.board.sumo_area(corner)
        layouts = setup.suggest_layouts(
            self.board, self.params.die_size, area, self.state.setup_targets(seat, corner)
        )
        for _, poses in layouts:
            rel = setup.to_seat_relative(area, seat, self.players(), poses)
            if self.why_illegal(seat, setup.setup_action(seat, corner, rel)) is None:
                return poses
        return layouts[-1][1]

    def make_setup(self, seat: int, corner: str, poses: Sequence[Any]) -> Any:
        """The set-up action of world poses in ``corner`` (seat-relative in the action)."""
        from jamsumo_sim.rules import setup

        area = self.board.sumo_area(corner)
        rel = setup.to_seat_relative(area, seat, self.players(), poses)
        return setup.setup_action(seat, corner, rel)

    def pass_action(self, seat: int) -> Any | None:
        from jamsumo_sim.rules.flick_actions import PASS

        return PASS if self.state.is_legal(seat, PASS) else None

    def shot_time(self) -> float:
        return float(self.state.shot_time)

    def commit(self, action: Any, animated: Any | None = None) -> list[str]:
        if self.practice():
            saved = (self.to_move(), self.state.clone(), self._rounds_seen, self._pending_table)
            self._undo = [*self._undo[-(UNDO_DEPTH - 1) :], saved]
        seen = len(self.state.log)
        rounds = len(self.state.results)
        self.state.apply_action(action)
        if self.state.pending is not None:  # the execution error the preview showed
            self.state.apply_action(seeded_outcome(self.state))
        same_round = len(self.state.results) == rounds
        if animated is not None and same_round and self.state.world is not None:
            self._compare(animated)
        self._note_round_end()
        return [e.text for e in self.state.log[seen:] if e.visible_to(None)]

    def _compare(self, animated: Any) -> None:
        """The animated shot must end where the rules' shot ended (dice the rules kept)."""
        try:
            for st in self.state.world.states():
                mine = animated.state(st.id)
                if (mine.x, mine.y, mine.angle, mine.face) != (st.x, st.y, st.angle, st.face):
                    self.mismatches += 1
                    warn(f"animated shot differs from the rules' shot at die {st.id}")
                    return
        except Exception as exc:  # noqa: BLE001 - a drawing copy must never break the match
            self.mismatches += 1
            warn(f"cannot compare the animated shot: {exc}")

    def _note_round_end(self) -> None:
        n = len(self.state.results)
        if n > self._rounds_seen:
            self._rounds_seen = n
            self._pending_table = self._round_table(n - 1)

    # --- undo (practice only: at the table a shot, once made, stays) -------------------------
    def practice(self) -> bool:
        """Exact play (``--practice``): no execution noise, and shots may be taken back."""
        return bool(self.state.noise.exact)

    def undo_offered(self) -> bool:
        return self.practice()

    def can_undo(self) -> bool:
        return self.practice() and any(self._is_people(seat) for seat, *_ in self._undo)

    def undo(self) -> bool:
        """Back to before the last move a person made (bots' moves after it go too: otherwise a
        bot would simply move again); the match state is the clone saved then."""
        if not self.can_undo():
            return False
        while self._undo:
            seat, state, rounds, table = self._undo.pop()
            if self._is_people(seat):
                self.state, self._rounds_seen, self._pending_table = state, rounds, table
                return True
        return False  # pragma: no cover - can_undo() saw a person's move

    def why_no_undo(self) -> str:
        if not self.practice():
            return f"No undo at the {self.state.noise.name} level: only in practice (--practice)."
        return "Undo: nothing to take back yet."

    def _is_people(self, seat: int | None) -> bool:
        # a hot-seat match or a bot-only one: any move; else a human's
        people = [s for s in range(len(self.seats)) if self.is_human(s)]
        return seat is not None and (not people or seat in people)

    def advance_automatic(self) -> list[str]:
        lines: list[str] = []
        while self.state.current_player() == CHANCE:
            seen = len(self.state.log)
            self.state.apply_action(self.state.chance_outcomes().sample(chance_rng(self.state)))
            lines.extend(e.text for e in self.state.log[seen:] if e.visible_to(None))
        return lines

    def bot_task(self) -> Callable[[], Any]:
        seat = self.to_move()
        assert seat is not None and seat in self.agents
        agent = self.agents[seat]
        # the copy is taken now, on the window's thread; the bot thinks on it and nothing else
        mine = self.state.clone()

        def think() -> Any:
            return agent.act(seat_view(mine, seat))

        think.agent = agent  # type: ignore[attr-defined]  # the window reads its progress
        return think

    def position_key(self) -> Hashable:
        return (id(self.state), len(self.state.history))

    # --- display --------------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return str(self.state.seat_name(seat))

    def seat_colour_name(self, seat: int) -> str:
        from jamsumo_sim.rules.seats import colour

        return colour(seat)

    def panel(self, theme: Theme) -> PanelInfo:
        st = self.state
        seat = self.to_move()
        modes = list(st.round_modes)
        words = scoring.score_words(self.game.mode)
        totals = st.totals()
        current = st.current_scores()
        rows = []
        for s in range(self.players()):
            rows.append(
                PlayerRow(
                    seat=s,
                    name=self._name(s),
                    colour=theme.dice_colour(self.seat_colour_name(s)),
                    in_hand=len(st.in_hand(s)),
                    on_board=len(st.on_board(s)),
                    score=scoring.live_score_text(
                        self.game.mode, st.mode, totals[s], current[s], st.is_terminal()
                    ),
                    to_move=(s == seat),
                    kind=self.seats[s],
                )
            )
        if st.is_terminal():
            turn = "Match over"
            turn_colour = None
        elif seat is None:
            turn = "Rolling for the round marker"
            turn_colour = None
        elif st.setting_up() is not None:
            who = "your" if self.is_human(seat) else f"{self.seats[seat]}'s"
            turn = f"{self._name(seat)} to set up ({who} turn)"
            turn_colour = theme.dice_colour(self.seat_colour_name(seat))
        else:
            who = "your" if self.is_human(seat) else f"{self.seats[seat]}'s"
            turn = f"{self._name(seat)} to flick ({who} turn)"
            turn_colour = theme.dice_colour(self.seat_colour_name(seat))
        title = {"jam": "Jam", "sumo": "Sumo", "jamsumo": "JamSumo"}.get(self.game.mode, "Match")
        return PanelInfo(
            title=title,
            round_text=f"Round {min(st.round, len(modes))} of {len(modes)}: {st.mode.capitalize()} "
            f"— {words.headline}"
            + ("" if st.is_terminal() else "; in brackets what this round adds"),
            turn_text=turn,
            turn_colour=turn_colour,
            players=tuple(rows),
            log=tuple(st.log_for(None)[-60:]),
            score_head=words.total,
        )

    def _round_table(self, index: int) -> Table:
        st = self.state
        res = st.results[index]
        game = self.game.mode
        words = scoring.score_words(game)
        totals = scoring.totals(game, st.results[: index + 1], self.players())
        rows = tuple(
            (
                self._name(s),
                scoring.signed_text(game, res["mode"], int(res["scores"][s])),
                scoring.number_text(totals[s]),
            )
            for s in range(self.players())
        )
        if st.is_terminal():
            return self.match_table()
        return Table(
            title=f"Round {index + 1}: {res['mode'].capitalize()}",
            header=("player", _round_head(game, res["mode"]), words.total),
            rows=rows,
            footer=f"{words.headline} — click or press Enter to go on",
        )

    def match_table(self) -> Table:
        st = self.state
        game = self.game.mode
        words = scoring.score_words(game)
        header = (
            ["player"]
            + [f"R{i + 1} {_round_head(game, r['mode'])}" for i, r in enumerate(st.results)]
            + [words.total]
        )
        totals = st.totals()
        rows = tuple(
            (
                self._name(s),
                *(scoring.signed_text(game, r["mode"], int(r["scores"][s])) for r in st.results),
                scoring.number_text(totals[s]),
            )
            for s in range(self.players())
        )
        winners = ", ".join(self._name(s) for s in st.winners())
        footer = f"Winner: {winners} — {words.headline}" if winners else words.headline
        return Table(title="Match over", header=tuple(header), rows=rows, footer=footer)

    def table(self, theme: Theme) -> Table | None:
        return self._pending_table

    def dismiss_table(self) -> None:
        if not self.state.is_terminal():
            self._pending_table = None

    def log(self) -> list[str]:
        return list(self.state.log_for(None))

    # --- saving --------------------------------------------------------------------------------
    def save_data(self) -> dict[str, Any] | None:
        return {
            "kind": "match",
            "seats": self.seats,
            "finished": bool(self.state.is_terminal()),
            "state": self.state.to_json(),
        }

    def save_replay(self, path: str) -> str:
        from jamsumo_sim import replay

        replay.save_replay(path, self.state, self.seats)
        return path


def _round_head(game_mode: str, round_mode: str) -> str:
    """A round's column head: what its numbers are (signed in JamSumo: −penalties, +points)."""
    word = scoring.round_word(round_mode)
    if game_mode == "jamsumo":
        return f"{round_mode.capitalize()} {'−' if round_mode == 'jam' else '+'}{word}"
    return word


def new_match(
    mode: str,
    seats: Sequence[str],
    seed: int,
    physics: dict[str, Any] | None = None,
    noise: str = "practice",
    sumo_setup: str = "choose",
) -> MatchSession:
    """A fresh match of ``mode`` for these seats at execution-noise level ``noise``; Sumo rounds
    open with each player's set-up (``choose``) or the old fixed grid (``grid``)."""
    from jamsumo_sim.turnloop import get_game

    game = get_game(mode)
    params = game.default_params(len(seats))
    params["noise"] = noise
    params["sumo_setup"] = sumo_setup
    if physics:
        params["physics"] = dict(physics)
    state = game.new_initial_state(game.validate_params(params), seed=seed)
    return MatchSession(state, seats)


def resume_match(data: dict[str, Any], where: str = "autosave") -> MatchSession:
    """Rebuild a saved match (its history is replayed, so every move is checked again).

    Any problem with the data is a one-line UserError starting with ``where``.
    """
    from jamsumo_sim.turnloop import state_from_json

    try:
        saved = dict(data["state"])
        if saved.get("game") in ("jam", "sumo", "jamsumo") and isinstance(
            saved.get("params"), dict
        ):
            from jamsumo_sim.replay import with_legacy_defaults

            saved["params"] = with_legacy_defaults(saved["params"])  # saves from before set-ups
        state = state_from_json(saved, where)
        seats = _check_seats(data["seats"], state, where)
        session = MatchSession(state, seats)
        session.saved_stories = _stories(data.get("stories"), len(session.log()))
        return session
    except UserError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError) as exc:
        # a saved file is untrusted input: whatever is wrong with it is a one-line error
        text = str(exc).splitlines()[0][:120] if str(exc) else ""
        raise UserError(
            f"{where}: the saved match cannot be rebuilt ({text or type(exc).__name__})"
        ) from None
    except RecursionError:
        raise UserError(f"{where}: the saved match is nested too deeply") from None


def _stories(raw: Any, log_length: int) -> list[tuple[int, str]]:
    """The window's saved "what was hit" lines ([log length, line] pairs); anything malformed
    (an untrusted file) is dropped, never an error: they are a courtesy, not the match."""
    if not isinstance(raw, list):
        return []
    out: list[tuple[int, str]] = []
    for item in raw[-500:]:
        if (
            isinstance(item, list)
            and len(item) == 2
            and type(item[0]) is int
            and 0 <= item[0] <= log_length
            and isinstance(item[1], str)
        ):
            out.append((item[0], item[1][:200]))
    return out


def _check_seats(seats: Any, state: Any, where: str) -> list[str]:
    """Seat kinds the window can play: one per player, each ``human`` or one of the game's bots."""
    kinds = [HUMAN, *state.game.bots()]
    if not isinstance(seats, list) or len(seats) != state.num_players:
        raise UserError(f"{where}: 'seats' must list one kind per player ({state.num_players})")
    for spec in seats:
        kind = spec.partition(":")[0] if isinstance(spec, str) else None
        if kind not in kinds:
            raise UserError(f"{where}: unknown seat kind {str(spec)[:30]!r}")
    return list(seats)


def warn(text: str) -> None:
    print(f"jamsumo: {text}", file=sys.stderr)
