"""The smart bot does not spam offers (issue 35): against a scripted person who refuses every
offer it makes at most one offer a turn, never one equivalent to a refused one, and fewer as
the refusals come (37 offers a 2-player game before, about 4 after)."""

from __future__ import annotations

from collections import Counter

from card_games.the_jam import GAME
from card_games.the_jam.bots import SmartAgent
from card_games.the_jam.refusals import RefusalMemory
from jamsumo_sim.turnloop import RandomAgent, play

OFFER = "Seat 0 offers seat "


class Refuser(RandomAgent):
    """A scripted person: refuses every proposal, otherwise plays at random."""

    kind = "refuser"

    def act(self, view):  # type: ignore[no-untyped-def]
        refuse = [a for a in view.legal_actions if a.get("trade") == "refuse"]
        return refuse[0] if refuse else super().act(view)


def _offers(players: int, seed: int) -> list[tuple[int, int, Counter[str], Counter[str]]]:
    """(turn, partner, what seat 0 gives, what it asks) of every offer seat 0 made."""
    agents = [SmartAgent(0, GAME)] + [Refuser(s, GAME) for s in range(1, players)]
    state = play(GAME, agents, seed=seed, params={"players": players}).state
    turn, out = 0, []
    for entry in state.log:
        if entry.text.startswith("— Turn"):
            turn += 1
        if entry.text.startswith(OFFER):
            partner, rest = entry.text[len(OFFER) :].split(" ", 1)
            gives, asks = rest.rstrip(".").split(" for ")
            out.append((turn, int(partner), Counter(gives.split(", ")), Counter(asks.split(", "))))
    return out


def _no_more_for_them(earlier: tuple, later: tuple) -> bool:
    """``later`` gives the partner no more, for no less, than ``earlier`` (same partner)."""
    return earlier[1] == later[1] and not (later[2] - earlier[2]) and not (earlier[3] - later[3])


def test_a_refuser_sees_one_offer_a_turn_and_never_an_equivalent_one() -> None:
    total = 0
    for players in (2, 3, 4):
        for seed in range(4):
            offers = _offers(players, seed)
            total += len(offers)
            per_turn = Counter(o[0] for o in offers)
            assert max(per_turn.values(), default=0) <= 1, (players, seed, per_turn)
            for i, later in enumerate(offers):
                assert not any(_no_more_for_them(e, later) for e in offers[:i]), (
                    players,
                    seed,
                    later,
                )
            # refusals teach it: the game's offers are few (37 a 2-player game before)
            assert len(offers) <= 10, (players, seed, len(offers))
    assert total >= 12  # it still offers: the test is not passed by never trading


def test_each_refusal_makes_the_bot_wait_longer_and_ask_for_more() -> None:
    memory = RefusalMemory(seat=0)
    turn = 10
    for n in range(1, 5):
        refused = [{"partner": 1, "mine": [f"a{n}"], "theirs": ["b"]}]
        memory.update({"turn": turn, "active": 0, "refused": refused, "made": [[], []]})
        assert memory.margin(1) == n * 1.5
        waits = [t for t in range(turn, turn + 40) if memory.waiting(1, t)]
        assert len(waits) == 2 * min(2 ** (n - 1), 8)  # own turns (2 players) of waiting
        assert not memory.waiting(2, turn)  # only the seat that refused
        turn += 40
    # equivalent: giving no more for no less; a richer offer for them is not
    assert memory.equivalent((1, ("a1",), ("b",)))
    assert memory.equivalent((1, (), ("b", "c")))
    assert not memory.equivalent((1, ("a1", "z"), ("b",)))
    assert not memory.equivalent((2, ("a1",), ("b",)))
    # a new game with the same bot forgets
    memory.update({"turn": 0, "active": 1, "refused": [], "made": [[], []]})
    assert not memory.offers and memory.margin(1) == 0
