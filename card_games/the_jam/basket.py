"""An index of the basket for the play step: what ``moves.play_actions`` would otherwise rescan.

The basket changes by a card or three a turn, while listing the play moves needs it deduplicated
by card label and grouped by ingredient half every turn; the index is updated card by card
instead. It keeps a copy of the cards it describes, so a check of that copy against the state's
basket (one C-level list comparison) catches any change made behind its back (a test setting the
basket, a clone, a state rebuilt from a saved game): it is then rebuilt from scratch.
"""

from __future__ import annotations

from collections import Counter

from card_games.the_jam.cards import JAM, PIE

_RECIPES = (JAM, PIE)  # the basket recipes a hand card can finish


class BasketIndex:
    """The distinct cards (each label's first copy, in basket order), grouped for the play step.

    ``cards`` is the basket described; ``distinct`` one card per label in basket order;
    ``by_bottom`` the same grouped by ingredient half; ``recipes`` its jams and pies (the basket
    recipes a hand card can finish), in basket order, of the ``accessible`` cards. The plain
    basket's (every card accessible) is kept and updated card by card; the travel variant's
    (stack tops, ``of_stack_tops``) is built for one use.
    """

    __slots__ = ("cards", "distinct", "by_bottom", "recipes", "first", "copies", "stale")

    def __init__(
        self,
        cards: list[str],
        accessible: list[str],
        label: dict[str, str],
        kind: dict[str, str],
        bottom: dict[str, str],
    ) -> None:
        self.cards = list(cards)
        self.distinct: list[str] = []
        self.by_bottom: dict[str, list[str]] = {}  # ingredient half -> the cards showing it
        self.recipes: list[str] = []
        self.stale = False  # set when an update cannot be made card by card
        # one pass, then what updates need, at C level
        distinct, by_bottom, recipes = self.distinct, self.by_bottom, self.recipes
        names = list(map(label.__getitem__, accessible))
        seen: set[str] = set()
        for cid, name in zip(accessible, names, strict=True):
            if name in seen:
                continue
            seen.add(name)
            distinct.append(cid)
            b = bottom[cid]
            group = by_bottom.get(b)
            if group is None:
                by_bottom[b] = [cid]
            else:
                group.append(cid)
            if kind[cid] in _RECIPES:
                recipes.append(cid)
        # label -> copies among the cards, and the first copy (the one listed), for updates
        self.copies: dict[str, int] = dict(Counter(names))
        self.first: dict[str, str] = dict(zip(reversed(names), reversed(accessible), strict=True))

    @classmethod
    def of_stack_tops(
        cls, cards: list[str], kind: dict[str, str], bottom: dict[str, str]
    ) -> BasketIndex:
        """A one-use index of the travel variant's basket (see ``stack_tops``): never updated."""
        new = cls.__new__(cls)
        new.cards = cards
        new.distinct, new.by_bottom, new.recipes = stack_tops(cards, kind, bottom)
        new.first, new.copies, new.stale = {}, {}, False
        return new

    def _add(self, cid: str, name: str, kind: dict[str, str], bottom: dict[str, str]) -> None:
        n = self.copies.get(name, 0)
        self.copies[name] = n + 1
        if n:
            return  # a later copy of a listed card
        self.first[name] = cid
        self.distinct.append(cid)
        group = self.by_bottom.get(bottom[cid])
        if group is None:
            self.by_bottom[bottom[cid]] = [cid]
        else:
            group.append(cid)
        if kind[cid] in _RECIPES:
            self.recipes.append(cid)

    def append(
        self,
        cid: str,
        label: dict[str, str],
        kind: dict[str, str],
        bottom: dict[str, str],
    ) -> None:
        """The card was put on the end of the basket."""
        self.cards.append(cid)
        self._add(cid, label[cid], kind, bottom)

    def remove(
        self,
        cid: str,
        label: dict[str, str],
        kind: dict[str, str],
        bottom: dict[str, str],
    ) -> None:
        """The card was taken from the basket."""
        self.cards.remove(cid)
        name = label[cid]
        n = self.copies[name]
        if n > 1:
            self.copies[name] = n - 1
            if self.first[name] == cid:
                # the next copy takes its place, at its own position: rebuilt on the next use
                self.stale = True
            return
        del self.copies[name], self.first[name]
        self.distinct.remove(cid)
        self.by_bottom[bottom[cid]].remove(cid)
        if kind[cid] in _RECIPES:
            self.recipes.remove(cid)

    def copy(self) -> BasketIndex:
        new = BasketIndex.__new__(BasketIndex)
        new.cards = list(self.cards)
        new.distinct = list(self.distinct)
        new.by_bottom = {b: list(g) for b, g in self.by_bottom.items()}
        new.recipes = list(self.recipes)
        new.first = dict(self.first)
        new.copies = dict(self.copies)
        new.stale = self.stale
        return new


def stack_tops(
    cards: list[str], kind: dict[str, str], bottom: dict[str, str]
) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """The travel variant's accessible basket as the index holds it (distinct cards, the same by
    ingredient half, the jams and pies): the top card of each ingredient's stack (the last one
    put there), in basket order. Labels name the ingredient half, so the tops are distinct."""
    tops = dict(zip(map(bottom.__getitem__, cards), cards, strict=True))  # the last per half
    distinct = [cid for cid in cards if tops[bottom[cid]] == cid]
    by_bottom = {bottom[cid]: [cid] for cid in distinct}
    return distinct, by_bottom, [cid for cid in distinct if kind[cid] in _RECIPES]
