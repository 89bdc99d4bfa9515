"""The `smart` bot: plays toward its own secret tasks.

It scores every legal move by how much its end-of-game score would change: the exact task scoring
of its made recipes (scoring.py) plus a discounted "potential" of the cards left in its hand,
which counts what the basket lets them become (so basket ingredients are valued by what they
enable). It bids for the Young man when his 7 points beat the cheapest winning bid, gives the
Bear its least useful pie, and trades when the swap raises its own task score while the other
side, judged from public information only (printed points, and how often the kind appears on the
task cards it cannot see), is not expected to lose.
Everything is derived from the seat's observation, so the bot is stateless.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from card_games.the_jam.cards import JAM, PIE, PINECONE, SALAD, Card, CardSet, TaskCard, card_rank
from card_games.the_jam.refusals import RefusalMemory
from card_games.the_jam.scoring import task_points, yum_points
from jamsumo_sim.turnloop import Action, Game, HeuristicAgent, SeatView

READY = 0.7  # chance weight of a hand card whose ingredient or jam is already available
LATER = 0.25  # weight of a hand card still waiting for its ingredient


@dataclass
class Context:
    cs: CardSet
    seat: int
    kids: bool
    tasks: tuple[TaskCard, ...]
    hand: list[str]
    basket: list[str]
    made: list[str]
    others: dict[int, list[str]]
    base: float
    target: Any = None
    memo: dict[tuple[str, ...], float] = field(default_factory=dict)
    gains: dict[str, float] = field(default_factory=dict)
    hidden_weight: dict[tuple[str, str], float] | None = None
    rank: dict[str, int] = field(default_factory=dict)
    worth: dict[str, float] = field(default_factory=dict)


def _value(ctx: Context, made: Sequence[str]) -> float:
    """End-of-game points of these made recipes (recipes + tasks + yum-yum), memoised per decision."""
    if ctx.kids:
        return float(len(made))
    key = tuple(sorted(made))
    hit = ctx.memo.get(key)
    if hit is not None:
        return hit
    cards = [ctx.cs.cards[c] for c in made]
    w, g, p = task_points(cards, ctx.tasks, ctx.cs.rules)
    value = sum(c.points for c in cards) + w + g + p + yum_points(cards, ctx.tasks, ctx.cs.rules)
    ctx.memo[key] = value
    return value


def _without(ids: Sequence[str], remove: Sequence[str]) -> list[str]:
    out = list(ids)
    for cid in remove:
        out.remove(cid)
    return out


def _gain(ctx: Context, cid: str) -> float:
    """How much one more recipe ``cid`` would add now (a pie: baked with our best matching jam)."""
    hit = ctx.gains.get(cid)
    if hit is not None:
        return hit
    cards = ctx.cs.cards
    card = cards[cid]
    gain = 0.0
    if card.kind == PIE:
        jams = [
            m for m in ctx.made if cards[m].kind == JAM and cards[m].top in (card.top, PINECONE)
        ]
        for j in _distinct_labels(ctx, jams):
            gain = max(gain, _value(ctx, [*_without(ctx.made, [j]), cid]) - ctx.base)
    elif card.is_recipe:
        gain = _value(ctx, [*ctx.made, cid]) - ctx.base
    ctx.gains[cid] = gain
    return gain


def _distinct_labels(ctx: Context, ids: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for cid in ids:
        seen.setdefault(ctx.cs.cards[cid].label, cid)
    return list(seen.values())


def _potential(
    ctx: Context, hand: Sequence[str], basket: Sequence[str], made: Sequence[str]
) -> float:
    """What the hand is likely worth later, given the basket and the made jams.

    Gains are measured against the recipes made before this move (one evaluation per card per
    decision), which keeps the bot fast; the interaction of two future recipes is ignored.
    """
    cards = ctx.cs.cards
    bottoms = {cards[c].bottom for c in basket}
    jam_tops = {cards[m].top for m in made if cards[m].kind == JAM}
    total = 0.0
    for i, cid in enumerate(hand):
        card = cards[cid]
        if card.kind == JAM:
            rest_bottoms = {cards[h].bottom for j, h in enumerate(hand) if j != i}
            ready = (
                (card.top == PINECONE and bool(basket))
                or card.top in bottoms
                or card.top in rest_bottoms
            )
            total += _gain(ctx, cid) * (READY if ready else LATER)
        elif card.kind == PIE:
            if card.top in jam_tops or PINECONE in jam_tops:
                total += _gain(ctx, cid) * READY
            else:
                total += LATER * 0.5 * card.points
        elif card.kind == SALAD:
            ready = all(f in bottoms for f in card.fruits)
            total += card.points * (0.6 if ready else 0.2)
    # basket recipes we could finish next turn with our hand or jams
    hand_bottoms = {cards[h].bottom for h in hand}
    best = 0.0
    for cid in basket:
        card = cards[cid]
        if card.kind == JAM and (card.top in hand_bottoms or (card.top == PINECONE and hand)):
            best = max(best, _gain(ctx, cid))
        elif card.kind == PIE and (card.top in jam_tops or PINECONE in jam_tops):
            best = max(best, _gain(ctx, cid) - 1.0)
    return total + 0.3 * best


TASK_HIT = 4.0  # rough worth of a recipe that a task card pictures


def _kind(card: Card) -> tuple[str, str]:
    return (card.kind, card.top)


def _hidden_task_weight(ctx: Context) -> dict[tuple[str, str], float]:
    """How many times, on average per unseen task card, each recipe kind is pictured."""
    if ctx.hidden_weight is not None:
        return ctx.hidden_weight
    own = {t.id for t in ctx.tasks}
    unseen = [t for t in ctx.cs.tasks.values() if t.id not in own]
    weight: dict[tuple[str, str], float] = {}
    for t in unseen:
        for fruit in (*t.jams, *t.party_jams):
            weight[(JAM, fruit)] = weight.get((JAM, fruit), 0.0) + 1.0 / len(unseen)
        for fruit in (*t.pies, *t.party_pies):
            weight[(PIE, fruit)] = weight.get((PIE, fruit), 0.0) + 1.0 / len(unseen)
    ctx.hidden_weight = weight
    return weight


def _public_worth(ctx: Context, cid: str) -> float:
    """A recipe's worth to another player as far as we can tell: its points, plus the chance
    that a task card we cannot see pictures it."""
    hit = ctx.worth.get(cid)
    if hit is None:
        card = ctx.cs.cards[cid]
        hit = ctx.worth[cid] = card.points + TASK_HIT * _hidden_task_weight(ctx).get(
            _kind(card), 0.0
        )
    return hit


# above (and minus: below) any play's score, which counts points of recipes and tasks
_BEFORE_ANY_PLAY = 1e6
GROW_STEPS = 4  # recipes (or pairs) added to a one-for-one trade at most, when each one pays
GROW_WIDTH = 4  # recipes of each side tried as additions at each step


class TradeTarget(NamedTuple):
    """A bundle to propose; each side in the order the engine lets it be built."""

    partner: int
    mine: tuple[str, ...]
    theirs: tuple[str, ...]


_TARGETS: dict[tuple[Any, ...], TradeTarget | None] = {}


class SmartAgent(HeuristicAgent):
    kind = "smart"

    def __init__(self, seat: int, game: Game, **options: Any) -> None:
        super().__init__(seat, game, **options)
        # our refused proposals, seen as they are announced (public): a cap per turn, no
        # equivalent offer again, a partner who refuses is asked later and for more (refusals.py)
        self.memory = RefusalMemory(seat)

    def prepare(self, view: SeatView) -> Context:
        obs = view.observation
        memory = self.memory
        memory.update(obs)
        cs: CardSet = view.game.cards  # type: ignore[attr-defined]
        seat = view.seat
        made = [r["card"] for r in obs["made"][seat]]
        ctx = Context(
            cs=cs,
            seat=seat,
            kids=obs["variant"] == "kids",
            tasks=tuple(cs.tasks[t] for t in obs["tasks"] or []),
            hand=list(obs["hand"]),
            basket=list(obs["accessible"] if obs["accessible"] is not None else obs["basket"]),
            made=made,
            others={s: [r["card"] for r in m] for s, m in enumerate(obs["made"]) if s != seat},
            base=0.0,
            rank=card_rank(cs),
        )
        ctx.base = _value(ctx, made)
        if obs["auction"] is not None and obs["auction"]["bidder"] == seat:
            ctx.target = self._bid_target(ctx, obs["auction"])
        elif (
            obs["trade"] is None
            and obs["step"] == "trade"
            and obs["active"] == seat
            and not memory.refused_this_turn(obs)  # the cap: no second try after a refusal
            or obs["trade"] is not None
            and obs["active"] == seat
            and obs["variant"] != "travel"
        ):
            ctx.target = self._cached_trade_target(ctx, obs, memory)
        return ctx

    # -- targets ------------------------------------------------------------------------------
    def _loss(self, ctx: Context, ids: Sequence[str]) -> float:
        return ctx.base - _value(ctx, _without(ctx.made, ids))

    def _bid_target(self, ctx: Context, auction: dict[str, Any]) -> frozenset[str] | None:
        """The cheapest set of own jams that beats the high bid, if the Young man is worth it."""
        cards = ctx.cs.cards
        jams = [c for c in ctx.made if cards[c].kind == JAM]
        keyed = sorted(jams, key=lambda c: (self._loss(ctx, [c]) / max(cards[c].points, 1), c))
        chosen: list[str] = []
        for cid in keyed:
            if sum(cards[c].points for c in chosen) > auction["high"]:
                break
            chosen.append(cid)
        if sum(cards[c].points for c in chosen) <= auction["high"]:
            return None
        # drop jams that are not needed to stay above the high bid
        for cid in sorted(chosen, key=lambda c: -self._loss(ctx, [c])):
            rest = [c for c in chosen if c != cid]
            if sum(cards[c].points for c in rest) > auction["high"]:
                chosen = rest
        cost = self._loss(ctx, chosen)
        if ctx.cs.young_man_points - cost <= 0.5:
            return None
        return frozenset(chosen)

    def _cached_trade_target(
        self, ctx: Context, obs: dict[str, Any], memory: RefusalMemory
    ) -> TradeTarget | None:
        """The trade target, memoised on everything it depends on (the made recipes, our tasks,
        the refused proposals): a proposal takes several decisions with the same target."""
        key = (
            id(ctx.cs),
            ctx.seat,
            tuple(ctx.made),
            tuple((s, tuple(m)) for s, m in sorted(ctx.others.items())),
            tuple(t.id for t in ctx.tasks),
            memory.key(obs["turn"]),
        )
        if key in _TARGETS:
            return _TARGETS[key]
        if len(_TARGETS) >= 512:
            _TARGETS.clear()
        target = _TARGETS[key] = self._trade_target(ctx, obs, memory)
        return target

    def _trade_target(
        self, ctx: Context, obs: dict[str, Any], memory: RefusalMemory
    ) -> TradeTarget | None:
        """The best bundle to propose: it raises our score, costs the partner nothing visible.

        Each recipe's worth to us alone (gain if received, loss if given) ranks one-for-one
        pairs; the most promising few are scored exactly as swaps. The best two are then grown
        greedily, one recipe asked for (or one pair) at a time, while our exact score keeps
        rising and the partner's public estimate stays at least even, so a bundle of any size
        can come out; only the most promising few recipes of each side are tried at each step.
        """
        cards = ctx.cs.cards
        wanted: list[tuple[int, str, float]] = []
        for partner, theirs in sorted(ctx.others.items()):
            if memory.waiting(partner, obs["turn"]):
                continue  # refused us lately: asked again later (longer after each refusal)
            for y in _distinct_labels(ctx, theirs):
                gain_y = (
                    _gain(ctx, y)
                    if cards[y].kind != PIE
                    else _value(ctx, [*ctx.made, y]) - ctx.base
                )
                if gain_y > 0.5:
                    wanted.append((partner, y, gain_y))
        if not wanted:
            return None
        mine = _distinct_labels(ctx, ctx.made)
        loss = {x: self._loss(ctx, [x]) for x in mine}
        pairs: list[tuple[float, int, str, str]] = []
        for partner, y, gain_y in wanted:
            for x in mine:
                if self._their_gain(ctx, [x], [y]) < memory.margin(partner):
                    continue  # the partner is expected to lose: unlikely to accept
                pairs.append((gain_y - loss[x], partner, x, y))
        pairs.sort(key=lambda p: (-p[0], p[1], p[2], p[3]))
        exact: list[tuple[float, int, str, str]] = []
        for _, partner, x, y in pairs[:6]:
            exact.append((self._bundle_gain(ctx, [x], [y]), partner, x, y))
        exact.sort(key=lambda p: (-p[0], p[1], p[2], p[3]))
        # the recipes worth trying as additions: what we want most, and what we miss least
        give = sorted(mine, key=lambda x: (loss[x] - _public_worth(ctx, x), x))[:GROW_WIDTH]
        best: tuple[float, TradeTarget] | None = None
        for _, partner, x, y in exact[:2]:
            asks = [w[1] for w in sorted(wanted, key=lambda w: -w[2]) if w[0] == partner]
            found = self._grow(ctx, partner, [x], [y], asks[:GROW_WIDTH], give, memory)
            if found is not None and (best is None or found[0] > best[0]):
                best = found
        for gain, partner, x, y in exact:  # a plain swap, when the grown ones were refused
            key = (partner, (cards[x].label,), (cards[y].label,))
            if gain > 0.5 and not memory.equivalent(key) and (best is None or gain > best[0]):
                best = (gain, TradeTarget(partner, (x,), (y,)))
        return None if best is None else best[1]

    def _bundle_gain(self, ctx: Context, mine: Sequence[str], theirs: Sequence[str]) -> float:
        return _value(ctx, [*_without(ctx.made, mine), *theirs]) - ctx.base

    def _grow(
        self,
        ctx: Context,
        partner: int,
        mine: list[str],
        theirs: list[str],
        asks: list[str],
        gives: list[str],
        memory: RefusalMemory,
    ) -> tuple[float, TradeTarget] | None:
        """Grow a bundle greedily from one pair; the best bundle seen that was not refused."""
        cards = ctx.cs.cards

        def key(m: Sequence[str], t: Sequence[str]) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
            return (
                partner,
                tuple(sorted(cards[c].label for c in m)),
                tuple(sorted(cards[c].label for c in t)),
            )

        def left(pool: list[str], owner: Sequence[str], used: Sequence[str]) -> list[str]:
            # a recipe may be added again only while the owner has another copy of it
            return [c for c in pool if list(owner).count(c) > list(used).count(c)]

        gain = self._bundle_gain(ctx, mine, theirs)
        margin = memory.margin(partner)
        refused = memory.equivalent
        best = None if refused(key(mine, theirs)) or gain <= 0.5 else (gain, mine, theirs)
        for _ in range(GROW_STEPS):
            ys = left(asks, ctx.others[partner], theirs)
            xs = left(gives, ctx.made, mine)
            options = [(mine, [*theirs, y]) for y in ys]
            options += [([*mine, x], [*theirs, y]) for y in ys for x in xs]
            step: tuple[float, list[str], list[str]] | None = None
            for m, t in options:
                if self._their_gain(ctx, m, t) < margin:
                    continue
                g = self._bundle_gain(ctx, m, t)
                if g > gain + 0.5 and (step is None or g > step[0]):
                    step = (g, m, t)
            if step is None:
                break
            gain, mine, theirs = step
            if not refused(key(mine, theirs)) and (best is None or gain > best[0]):
                best = (gain, mine, theirs)
        if best is None:
            return None
        rank = ctx.rank
        return best[0], TradeTarget(
            partner,
            tuple(sorted(best[1], key=rank.__getitem__)),
            tuple(sorted(best[2], key=rank.__getitem__)),
        )

    def _their_gain(self, ctx: Context, give: Sequence[str], take: Sequence[str]) -> float:
        """The partner's expected gain from receiving ``give`` for ``take``, from public facts only:
        printed points, plus the chance that each kind is pictured on a task card we cannot see."""
        return sum(_public_worth(ctx, c) for c in give) - sum(_public_worth(ctx, c) for c in take)

    # -- scoring moves ------------------------------------------------------------------------
    def score(self, view: SeatView, action: Action, ctx: Context) -> float:
        args = dict(action.args)
        if "play" in args:
            return self._score_play(ctx, args)
        if "bid" in args:
            return self._score_bid(ctx, args, view.observation["auction"])
        if "trade" in args:
            return self._score_trade(ctx, args, view.observation)
        if action.name.startswith("pay "):
            hand = _without(ctx.hand, [args["pick"]])
            return _potential(ctx, hand, [*ctx.basket, args["pick"]], ctx.made)
        if "pick" in args:  # the Bear's pie, or the jam discarded when nobody bids
            return -self._loss(ctx, [args["pick"]])
        return 0.0

    def _score_play(self, ctx: Context, args: dict[str, Any]) -> float:
        kind = args["play"]
        hand, basket, made = list(ctx.hand), list(ctx.basket), list(ctx.made)
        if kind == "ingredient":
            hand.remove(args["pick"])
            basket.append(args["pick"])
        elif kind == "jam":
            rid, iid = args["recipe"], args["ingredient"]
            if args["source"] == "hand":
                hand.remove(rid)
                basket.remove(iid)
            else:
                basket.remove(rid)
                hand.remove(iid)
            made.append(rid)
        elif kind == "pie":
            rid = args["recipe"]
            (hand if args["source"] == "hand" else basket).remove(rid)
            made.remove(args["jam"])
            basket.append(args["jam"])
            made.append(rid)
        elif kind == "salad":
            hand.remove(args["recipe"])
            for cid in args["ingredients"]:
                basket.remove(cid)
            made.append(args["recipe"])
        gain = _value(ctx, made) - ctx.base
        debt = 0.0
        if kind == "pie" and args["source"] == "basket" and hand:
            # the card we must give back: the least useful one left
            debt = min(
                _potential(ctx, hand, basket, made)
                - _potential(ctx, _without(hand, [h]), basket, made)
                for h in hand
            )
        return gain + _potential(ctx, hand, basket, made) - debt

    def _score_bid(self, ctx: Context, args: dict[str, Any], auction: dict[str, Any]) -> float:
        target = ctx.target
        if args["bid"] == "pass":
            return 0.0 if target is None else -10.0
        if args["bid"] == "place":
            return 20.0 if target is not None and set(auction["building"]) >= target else -1.0
        return 10.0 if target is not None and args["pick"] in target else -5.0

    def _score_trade(self, ctx: Context, args: dict[str, Any], obs: dict[str, Any]) -> float:
        kind = args["trade"]
        target = ctx.target
        trade = obs["trade"]
        if kind == "accept":
            mine = trade["mine"]  # the proposer's recipes come to us
            theirs = trade["theirs"]
            return _value(ctx, [*_without(ctx.made, theirs), *mine]) - ctx.base
        if kind == "refuse":
            return 1e-6
        if kind == "give":  # travel: hand over the least valuable recipes
            return -self._loss(ctx, [args["pick"]])
        if kind == "start" or kind == "blind":
            # listed beside the plays: open the trade toward the target before any play, and
            # never otherwise (a blind swap gives away recipes we cannot choose to get)
            wanted = kind == "start" and target is not None and args["partner"] == target.partner
            return _BEFORE_ANY_PLAY if wanted else -_BEFORE_ANY_PLAY
        if kind == "none":
            return 0.0
        if target is None:
            return {"cancel": 1.0, "propose": -1.0}.get(kind, -5.0)
        building = trade is not None and trade["partner"] == target.partner
        on_track = building and (
            self._prefix(ctx, trade["mine"], target.mine)
            and self._prefix(ctx, trade["theirs"], target.theirs)
        )
        if kind in ("mine", "theirs"):
            side = target.mine if kind == "mine" else target.theirs
            have = trade["mine"] if kind == "mine" else trade["theirs"]
            wanted = (
                on_track
                and len(have) < len(side)
                and self._same(ctx, args["pick"], side[len(have)])
            )
            return 5.0 if wanted else -5.0
        if kind == "propose":
            done = (
                on_track
                and len(trade["mine"]) == len(target.mine)
                and len(trade["theirs"]) == len(target.theirs)
            )
            return 10.0 if done else -2.0
        if kind == "cancel":
            return -3.0 if on_track else 3.0
        return 0.0

    @staticmethod
    def _same(ctx: Context, a: str, b: str) -> bool:
        return ctx.cs.cards[a].label == ctx.cs.cards[b].label

    def _prefix(self, ctx: Context, have: Sequence[str], side: Sequence[str]) -> bool:
        """The side built so far is the start of the target's side (copies are interchangeable)."""
        return len(have) <= len(side) and all(
            self._same(ctx, h, s) for h, s in zip(have, side, strict=False)
        )


def describe_tasks(tasks: Sequence[TaskCard]) -> list[str]:
    return [t.describe() for t in tasks]


__all__ = ["Card", "SmartAgent", "describe_tasks"]
