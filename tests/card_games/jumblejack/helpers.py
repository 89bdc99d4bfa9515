"""Build JumbleJack positions from scripted chance outcomes and moves."""

from __future__ import annotations

from collections.abc import Mapping

from card_games.jumblejack import GAME
from card_games.jumblejack.state import JumbleJackState
from jamsumo_sim.turnloop import Action

C = GAME.components
ACC = C.accessories


def pid(*worn: str) -> str:
    """The id of the Pirate card wearing exactly these accessories."""
    mask = C.mask_of(list(worn))
    return next(p for p, m in C.pirates if m == mask)


def new_state(players: int, seed: int = 0) -> JumbleJackState:
    return GAME.new_initial_state(GAME.validate_params({"players": players}), seed=seed)


def fixed_tokens(players: int) -> list[str]:
    """First Player, then the Disguises in accessory order, then Mirrors: ``players`` of them."""
    ids = [C.first_player_token().id] + [t.id for t in C.disguises()]
    ids += [t.id for t in C.tokens if t.kind == "mirror" and not t.first_player]
    return [t for t in ids if t in _in_play(players)]


def _in_play(players: int) -> set[str]:
    chosen = {t.id for t in C.fixed_tokens(players)}
    return chosen | {t.id for t in C.disguises()[: C.disguise_count(players)]}


def dealt(
    players: int,
    doll: str,
    pirates: list[str],
    tokens: list[str] | None = None,
) -> JumbleJackState:
    """A state right after the set-up chance nodes (declarations next).

    ``tokens`` default: seat 0 First Player, then Disguises hat, cloak, … then Mirrors.
    With 4 players the Disguises drawn are the first three (hat, cloak, hook).
    """
    state = new_state(players)
    state.apply_action(Action.make("dress the Doll", order=[doll]))
    state.apply_action(Action.make("deal pirates", order=pirates))
    if players == 4:
        ids = [t.id for t in C.disguises()][:3]
        state.apply_action(Action.make("choose disguises", order=ids))
    state.apply_action(Action.make("deal tokens", order=tokens or fixed_tokens(players)))
    return state


def by_name(state: JumbleJackState, name: str) -> None:
    """Play the legal action with this name for the seat to move."""
    actions = {a.name: a for a in state.legal_actions()}
    assert name in actions, f"{name!r} not legal; legal: {sorted(actions)}"
    state.apply_action(actions[name])


def names(state: JumbleJackState, seat: int | None = None) -> list[str]:
    return [a.name for a in state.legal_actions(seat)]


def declare_all(state: JumbleJackState) -> None:
    """Every player makes the first of their true set-up statements."""
    while state.stage == "declare":
        state.apply_action(state.legal_actions()[0])


def point(state: JumbleJackState, targets: Mapping[int, int]) -> None:
    joint = {}
    for seat, target in targets.items():
        legal = {a["target"]: a for a in state.legal_actions(seat)}
        assert target in legal, f"seat {seat} may not point at {target}"
        joint[seat] = legal[target]
    state.apply_actions(joint)


def standard_start(players: int = 5, doll: str | None = None) -> JumbleJackState:
    """Seat s holds pirate number s+1 in file order (doll: the last card), set-up done."""
    ids = [p for p, _ in C.pirates]
    state = dealt(players, doll or ids[-1], ids[:players])
    declare_all(state)
    return state
