"""Seats, tokens, phase orders and rounds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from jamsumo_sim.turnloop import Direction, PhaseSpec, Repeat, RoundSpec, Seating, TurnTracker


def test_left_is_clockwise_and_right_counter_clockwise() -> None:
    s = Seating(4)
    assert s.left_of(3) == 0 and s.right_of(0) == 3
    assert s.clockwise(2) == [2, 3, 0, 1]
    assert s.counter_clockwise(2) == [2, 1, 0, 3]


@given(st.integers(1, 8), st.integers(0, 50))
def test_every_order_visits_each_seat_once(n: int, start: int) -> None:
    s = Seating(n)
    for direction in Direction:
        assert sorted(s.order_from(start % n, direction)) == list(range(n))


def _drive(
    tracker: TurnTracker, moves: int, passes: set[int] | None = None
) -> list[tuple[str, int, str]]:
    seen = []
    for _ in range(moves):
        seat = tracker.seat
        ended = tracker.advance(passed=passes is not None and seat in passes)
        seen.append((tracker.phase.name, seat, ended))
        if tracker.game_over:
            break
    return seen


def test_phase_orders_and_token_passing() -> None:
    spec = RoundSpec(
        phases=(
            PhaseSpec("work", Direction.CLOCKWISE, Repeat.TIMES, times=2),
            PhaseSpec("orders", Direction.COUNTER_CLOCKWISE, Repeat.ONCE, start="efficient"),
        ),
        rounds=2,
        tokens_pass=(("first_player", Direction.CLOCKWISE), ("efficient", Direction.CLOCKWISE)),
    )
    t = TurnTracker.start(Seating(3), spec, {"first_player": 1, "efficient": 0})

    def take(k: int) -> list[int]:
        seats = []
        for _ in range(k):
            seats.append(t.seat)
            t.advance()
        return seats

    assert take(6) == [1, 2, 0, 1, 2, 0]
    assert t.phase.name == "orders"
    assert take(3) == [0, 2, 1]
    # both tokens passed left at the end of round 1
    assert t.round == 2 and t.tokens == {"first_player": 2, "efficient": 1}
    assert t.seat == 2


def test_until_all_pass_needs_a_full_lap_of_passes() -> None:
    spec = RoundSpec((PhaseSpec("bid", repeat=Repeat.UNTIL_ALL_PASS),), rounds=1)
    t = TurnTracker.start(Seating(3), spec, {"first_player": 0})
    assert t.advance(passed=True) == "turn"
    assert t.advance(passed=False) == "turn"  # seat 1 acts: the count starts again
    assert t.advance(passed=True) == "turn"
    assert t.advance(passed=True) == "turn"
    assert t.advance(passed=True) == "game"


def test_simultaneous_phase_skips_the_token_holder() -> None:
    spec = RoundSpec((PhaseSpec("point", repeat=Repeat.SIMULTANEOUS, skip_token="doll"),))
    t = TurnTracker.start(Seating(5), spec, {"first_player": 0, "doll": 2})
    assert t.is_simultaneous() and t.participants() == [0, 1, 3, 4]
    t.give_token("doll", 4)
    t.refresh_order()
    assert t.participants() == [0, 1, 2, 3]


def test_end_round_early_and_fixed_round_count() -> None:
    spec = RoundSpec((PhaseSpec("turns", repeat=Repeat.UNTIL_ENDED),), rounds=2)
    t = TurnTracker.start(Seating(2), spec, {"first_player": 1})
    for _ in range(7):
        assert t.advance() == "turn"
    assert t.end_round() == "round" and t.round == 2 and t.seat == 0
    assert t.end_round() == "game" and t.game_over
