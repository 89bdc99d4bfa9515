"""The ``smart`` Jumble Jam bot: it sees only its seat's observation.

* Jars: every free edge is scored by how much it raises the bot's chance of winning the two
  cards it touches (weighted by what those cards are worth to the bot's hand and the orders on
  display) and lowers the opponents' chances on cards they would value. A card's chance comes
  from its jar margin against the free edges still around it, so border cards (fewer edges) are
  secured cheaply and contested centre cards are not over-paid.
* Orders: an exhaustive search over the hand's minimal fills of each order on display; a fill is
  worth its coins (exact or waste reward, the die's bonus) minus the value of the cards it spends
  (jam cards cost most). Kitty cards and tokens are always used on the biggest hand.
* Hand limit: the least valuable card goes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from card_games.jumble_jam.cards import KITTY, Catalog
from card_games.jumble_jam.fills import Fill, enumerate_fills
from card_games.jumble_jam.grid import grid
from jamsumo_sim.turnloop import Action, Agent, SeatView

# What spending a piece on an order costs (it could have served another order later).
PASTRY_COST = 0.3
PASTRY_COST_PER_UNIT = 0.1
JAM_COST = 0.9
JAM_COST_PER_UNIT = 0.4
TOKEN_COST = 0.2
FILL_THRESHOLD = 0.5  # complete an order only when it is worth at least this much
BLOCK_WEIGHT = 0.6  # how much denying a card to an opponent counts against winning it


def parse_kind(kind: str) -> tuple[str, int]:
    """``"2 pie"`` → ("pie", 2); ``"kitty"`` → ("kitty", 0)."""
    if kind == KITTY:
        return KITTY, 0
    value, kind_type = kind.split(" ", 1)
    return kind_type, int(value)


def hand_pieces(hand: list[str], wild: str) -> tuple[dict[str, Counter[int]], Counter[int]]:
    own: dict[str, Counter[int]] = {}
    jam: Counter[int] = Counter()
    for kind in hand:
        kind_type, value = parse_kind(kind)
        if kind_type == wild:
            jam[value] += 1
        elif kind_type != KITTY:
            own.setdefault(kind_type, Counter())[value] += 1
    return own, jam


def fill_cost(fill: Fill) -> float:
    cost = 0.0
    for _, part in fill.parts:
        cost += sum(PASTRY_COST + PASTRY_COST_PER_UNIT * v for v in part.own)
        cost += sum(JAM_COST + JAM_COST_PER_UNIT * v for v in part.jam)
        cost += TOKEN_COST * part.tokens
    return cost


class SmartAgent(Agent):
    kind = "smart"

    def act(self, view: SeatView) -> Action:
        obs = view.observation
        legal = view.legal_actions
        catalog: Catalog = view.game.catalog  # type: ignore[attr-defined]
        phase = obs["phase"]
        if len(legal) == 1:
            return legal[0]
        if phase == "set-up":
            return self._choose_tokens(obs, legal)
        if phase == "hand limit":
            return min(legal, key=lambda a: (self.card_value(a["kind"], obs, catalog), a.name))
        if phase == "get to work":
            return self._place_jar(view, catalog)
        if obs["building"] is not None:
            return self._add_piece(obs, legal, catalog)
        return self._order_turn(obs, legal, catalog)

    # -- valuing cards ---------------------------------------------------------------------
    def card_value(self, kind: str, obs: Mapping[str, Any], catalog: Catalog) -> float:
        """What a card is worth to this seat's hand, given the orders on display."""
        kind_type, value = parse_kind(kind)
        if kind_type == KITTY:
            return 1.5
        hand = obs["hand"] or []
        own, jam = hand_pieces(hand, catalog.wild)
        best = 0.0
        for order in obs["orders"]:
            needs: dict[str, int] = order["needs"]
            total = sum(needs.values())
            deficits = {
                t: max(0, n - sum(v * k for v, k in own.get(t, Counter()).items()))
                for t, n in needs.items()
            }
            if kind_type == catalog.wild:
                gain = min(value, sum(deficits.values()))
            else:
                gain = min(value, deficits.get(kind_type, 0))
            best = max(best, order["exact"] * gain / total)
        base = (0.6 + 0.5 * value) if kind_type == catalog.wild else 0.3 * value
        worth = base + best
        if len(hand) >= catalog.hand_limit:
            worth *= 0.6  # a full hand will have to throw something away
        return worth

    @staticmethod
    def public_value(kind: str, obs: Mapping[str, Any], catalog: Catalog) -> float:
        """What a card is worth to a typical opponent (their hands are hidden)."""
        kind_type, value = parse_kind(kind)
        if kind_type == KITTY:
            return 1.0
        if kind_type == catalog.wild:
            return 0.8 + 0.6 * value
        demand = sum(1 for o in obs["orders"] if kind_type in o["needs"])
        return 0.3 * value + 0.25 * demand * min(value, 2)

    # -- set-up --------------------------------------------------------------------------------
    @staticmethod
    def _choose_tokens(obs: Mapping[str, Any], legal: list[Action]) -> Action:
        return legal[0]  # no orders are out yet: every type is as good

    # -- jars ------------------------------------------------------------------------------
    def _place_jar(self, view: SeatView, catalog: Catalog) -> Action:
        obs = view.observation
        me = view.seat
        n = obs["players"]
        g = grid(obs["columns"], obs["rows"])
        layout = obs["layout"]
        owner: list[int | None] = [None] * len(g.edges)
        index = {name: i for i, name in enumerate(g.edge_names)}
        for name, seat in obs["jars"].items():
            owner[index[name]] = seat
        free = {
            i
            for i, (a, b) in enumerate(g.edges)
            if owner[i] is None and layout[a] is not None and layout[b] is not None
        }
        left = [catalog.jars_per_player - obs["jars_placed"][s] for s in range(n)]
        mine = [self.card_value(k, obs, catalog) if k else 0.0 for k in layout]
        theirs = [self.public_value(k, obs, catalog) if k else 0.0 for k in layout]

        def chance(
            slot: int, seat: int, owners: list[int | None], free_set: set[int], jars: list[int]
        ) -> float:
            count = Counter(owners[e] for e in g.slot_edges[slot] if owners[e] is not None)
            margin = count[seat] - max((c for s, c in count.items() if s != seat), default=0)
            open_edges = sum(1 for e in g.slot_edges[slot] if e in free_set)
            threat = min(open_edges, sum(j for s, j in enumerate(jars) if s != seat))
            reach = min(open_edges, jars[seat])
            if margin > threat:
                return 1.0
            if margin + reach <= 0:
                return 0.0
            return min(0.95, max(0.05, 0.5 + 0.5 * margin / (open_edges + 1)))

        def position_value(
            owners: list[int | None], free_set: set[int], jars: list[int], slots: tuple[int, ...]
        ) -> float:
            total = 0.0
            for s in slots:
                total += mine[s] * chance(s, me, owners, free_set, jars)
                for other in range(n):
                    if other != me:
                        total -= BLOCK_WEIGHT * theirs[s] * chance(s, other, owners, free_set, jars)
            return total

        best: tuple[float, str] | None = None
        choice = view.legal_actions[0]
        for action in view.legal_actions:
            edge = action["edge"]
            slots = g.edges[edge]
            before = position_value(owner, free, left, slots)
            owner2 = list(owner)
            owner2[edge] = me
            left2 = list(left)
            left2[me] -= 1
            after = position_value(owner2, free - {edge}, left2, slots)
            key = (after - before + 1e-3 * float(view.rng.random()), action.name)
            if best is None or key[0] > best[0]:
                best, choice = key, action
        return choice

    # -- orders --------------------------------------------------------------------------------
    def best_fill(
        self,
        remaining: Mapping[str, int],
        order: Mapping[str, Any],
        obs: Mapping[str, Any],
        catalog: Catalog,
        already_waste: bool = False,
    ) -> tuple[float, Fill | None]:
        own, jam = hand_pieces(obs["hand"] or [], catalog.wild)
        me_tokens: dict[str, int] = {}
        seat = self.seat
        if obs["token_type"][seat] is not None:
            me_tokens[obs["token_type"][seat]] = obs["pastry_tokens"][seat]
        exact_only = obs["die"] == catalog.grandma
        fills = enumerate_fills(remaining, own, jam, me_tokens, exact_only)
        bonus = 1 if obs["die"] in order["needs"] else 0
        best: tuple[float, Fill | None] = (float("-inf"), None)
        for fill in fills:
            reward = order["exact"] if fill.exact and not already_waste else order["waste"]
            value = reward + bonus - fill_cost(fill)
            if value > best[0]:
                best = (value, fill)
        return best

    def _order_turn(self, obs: Mapping[str, Any], legal: list[Action], catalog: Catalog) -> Action:
        kitties = [a for a in legal if a.get("victim") is not None]
        if kitties:
            # a card (non-token) Kitty first: it frees a place in the hand
            def key(a: Action) -> tuple[int, int, int]:
                v = a["victim"]
                return (0 if a["token"] else 1, obs["hand_sizes"][v], obs["coins"][v])

            return max(kitties, key=key)
        orders = {o["id"]: o for o in obs["orders"]}
        best_value, best_action = FILL_THRESHOLD, None
        for action in legal:
            oid = action.get("order")
            if oid is None:
                continue
            order = orders[oid]
            value, _ = self.best_fill(order["needs"], order, obs, catalog)
            if value > best_value:
                best_value, best_action = value, action
        if best_action is not None:
            return best_action
        return next(a for a in legal if a.name == "pass")

    def _add_piece(self, obs: Mapping[str, Any], legal: list[Action], catalog: Catalog) -> Action:
        building = obs["building"]
        order = next(o for o in obs["orders"] if o["id"] == building["order"])
        got: Counter[str] = Counter(building["tokens"])
        for kind, as_type in building["cards"]:
            got[as_type] += parse_kind(kind)[1]
        already_waste = any(got[t] > n for t, n in order["needs"].items())
        _, fill = self.best_fill(building["remaining"], order, obs, catalog, already_waste)
        by_name = {a.name: a for a in legal}
        if fill is not None:
            for t, part in fill.parts:
                wanted = [f"add {v} {t}" for v in sorted(part.own)]
                wanted += [f"add {t} token"] * part.tokens
                wanted += [f"add {v} {catalog.wild} as {t}" for v in sorted(part.jam)]
                for name in wanted:
                    if name in by_name:
                        return by_name[name]
        return legal[0]
