"""A fixed action index per card game: every move name the game can ever list, in one order.

A card game's legal moves are :class:`Action` values whose *name* is unique among the legal moves
of a decision and depends only on what the move does, never on which copy of a card it uses (the
games list one move per distinct card). So the fixed index of a move is the position of its name
in the game's catalog, built here from the games' own move builders and card data over every seat
number, variant and player count (a superset: some entries are never legal, which only costs
mask width). ``tests/rl/test_catalog.py`` checks by random play that every listed move is in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import product

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import Action, Game, get_game


@dataclass(frozen=True)
class Catalog:
    """The move names of one game in a fixed order; ``index[name]`` is a move's action index."""

    game: str
    names: tuple[str, ...]
    index: dict[str, int] = field(repr=False, compare=False)

    @classmethod
    def of(cls, game: str, names: Iterable[str]) -> Catalog:
        unique = tuple(dict.fromkeys(names))  # first appearance fixes the order
        return cls(game, unique, {n: i for i, n in enumerate(unique)})

    def __len__(self) -> int:
        return len(self.names)

    def action_index(self, action: Action) -> int:
        found = self.index.get(action.name)
        if found is None:  # a rules change the catalog has not followed: say so, do not guess
            raise UserError(f"{self.game}: move {action.name[:60]!r} is not in the action catalog")
        return found


def _seats(game: Game) -> range:
    return range(game.max_players)


def _jellyfish(game: Game) -> Iterable[str]:
    kinds = sorted(game.label_of)  # type: ignore[attr-defined]
    for what, victim, kind in product(("card", "cover"), _seats(game), kinds):
        yield game.steal_action(what, victim, kind).name  # type: ignore[attr-defined]
    for kind in kinds:
        yield game.cover_action(kind).name  # type: ignore[attr-defined]
    for kind, to in product(kinds, _seats(game)):
        yield game.give_action(f"{kind}.0", to).name  # type: ignore[attr-defined]


def _jumble_jam(game: Game) -> Iterable[str]:
    from card_games.jumble_jam import state as js
    from card_games.jumble_jam.grid import grid

    cat = game.catalog  # type: ignore[attr-defined]
    yield js.PASS.name
    for t in cat.pastry_types:
        yield f"take {t} tokens"
    kinds = sorted({card.kind for card in cat.cards.values()})
    for kind in kinds:
        yield f"discard {kind}"
    for layout in cat.layouts.values():
        yield from (a.name for a in js.jar_actions(grid(layout.columns, layout.rows)))
    for victim, token in product(_seats(game), (False, True)):
        yield js.kitty_action(victim, token).name
    for oid in cat.order_ids:
        yield js.fill_action(cat.orders[oid]).name
    types = (*cat.pastry_types, cat.wild)
    for kind, as_type, as_jam in product(kinds, types, (False, True)):
        yield js.add_action(kind, as_type, as_jam).name
    for as_type in types:
        yield js.token_action(as_type).name


def _jumblejack(game: Game) -> Iterable[str]:
    from card_games.jumblejack.state import statement

    c = game.components  # type: ignore[attr-defined]
    seats = _seats(game)
    for acc, has in product(c.accessories, (True, False)):
        yield statement(acc, has)
    for t in seats:
        yield f"point at seat {t}"
    for t in seats:
        yield f"target seat {t}"
    for acc in c.accessories:
        yield f"remove the {acc}"
        yield f"add the {acc}"
    yield "exact match: reveal my pirate"
    for acc, has in product(c.accessories, (True, False)):
        yield "mismatch: " + statement(acc, has)
    for token in c.tokens:
        for acc, has in product(c.accessories, (True, False)):
            yield f"{token.name}: " + statement(acc, has)
    for t in seats:
        yield f"mirror to seat {t}"
    for _, mask in sorted(c.pirates, key=lambda p: p[1]):
        yield f"dress as: {c.outfit_text(mask)}"
    for t in seats:
        yield f"cast at seat {t}"


def _the_jam(game: Game) -> Iterable[str]:
    from card_games.the_jam import moves
    from card_games.the_jam.cards import JAM, PIE, SALAD
    from card_games.the_jam.rules import TRAVEL_MAX_SWAP

    tb = moves.tables(game.cards)  # type: ignore[attr-defined]
    first: dict[str, str] = {}  # label -> one card id (copies make the same names)
    for cid in tb.by_rank:
        first.setdefault(tb.label[cid], cid)
    ids = list(first.values())
    of_kind = {k: [c for c in ids if tb.kind[c] == k] for k in (JAM, PIE, SALAD)}
    seats = _seats(game)
    yield moves.NO_TRADE.name
    for partner in seats:
        yield tb.move(("start", partner)).name
    for partner, k in product(seats, range(1, TRAVEL_MAX_SWAP + 1)):
        yield tb.move(("blind", partner, k)).name
    yield from ("propose", "cancel the proposal", "accept", "refuse")
    for cid in ids:
        for what in ("mine", "give", "put", "pay"):
            yield tb.move((what, cid)).name
    for partner, cid in product(seats, ids):
        yield tb.move(("theirs", partner, cid)).name
    for rid, iid in product(of_kind[JAM], ids):
        yield tb.move(("jam-hand", rid, iid)).name
        yield tb.move(("jam-basket", rid, iid)).name
    for rid, jid in product(of_kind[PIE], of_kind[JAM]):
        yield tb.move(("pie-hand", rid, jid)).name
        yield tb.move(("pie-basket", rid, jid)).name
    for rid in of_kind[SALAD]:
        groups = [[c for c in ids if tb.bottom[c] == f] for f in tb.fruits[rid]]
        row = tb.rows_from_hand[rid]
        yield from (row[combo].name for combo in product(*groups))
    for cid in of_kind[PIE]:
        yield f"give back {tb.label[cid]}"
    for cid in of_kind[JAM]:
        yield f"discard {tb.label[cid]} to the basket"
        yield f"offer {tb.label[cid]} ({tb.points[cid]})"
    yield from ("pass", "pass (take my jams back)")
    most = sum(tb.points[c] for c in tb.by_rank if tb.kind[c] == JAM)
    for total in range(1, most + 1):
        yield f"bid {total} points of jam"


_BUILDERS: dict[str, Callable[[Game], Iterable[str]]] = {
    "jellyfish": _jellyfish,
    "jumble_jam": _jumble_jam,
    "jumblejack": _jumblejack,
    "the_jam": _the_jam,
}
CARD_GAME_NAMES: tuple[str, ...] = tuple(_BUILDERS)


@cache
def catalog(game_name: str) -> Catalog:
    """The fixed action catalog of a card game (registry name), built once per process."""
    builder = _BUILDERS.get(game_name)
    if builder is None:
        raise UserError(f"no action catalog for {game_name!r} (choose from {', '.join(_BUILDERS)})")
    return Catalog.of(game_name, builder(get_game(game_name)))
