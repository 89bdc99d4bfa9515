"""The kernels' per-die flags kept in place (physics/view.py): a die whose status changes (a hop,
a landing, a pitch, a die on or against another, a fall) is marked and only its entries are
rewritten at the next read; the rows are re-indexed only when a body comes or goes.  After every
read the arrays must equal a full refresh from the dice records, and a break must end bit for
bit as it does with a full refresh at every change."""

from __future__ import annotations

import pytest
from physics_helpers import block_break

from jamsumo_sim.physics import compiled_steps, view
from jamsumo_sim.world import World


def _break(board, params, seed: int, offset: float) -> World:
    return block_break(board, params, seed, offset, chance_seed=100 + seed)


def _expected(w: World) -> dict:
    """The arrays and what follows from them, computed from the records alone."""
    entries = [view.die_entry(d) for d in w._order]
    tops = [e[3] for e in entries]
    kinds = [compiled_steps.die_kind(w, d) for d in w._order]
    return {
        # the compiled steps' view (physics/compiled_steps.py): kind, partner, stands, and the
        # addresses of the dice whose bodies or shapes the compiled loop writes to
        "kinds": [list(k) for k in kinds],
        "land_tops": _nan_marked([view.landing_top(w, d) for d in w._order]),
        "bodies": [
            compiled_steps.address(d.body._body) if k[0] == compiled_steps.KIND_PITCHED else 0
            for d, k in zip(w._order, kinds, strict=True)
        ],
        "shapes": [
            compiled_steps.address(d.shape._shape)
            if k[0] in (compiled_steps.KIND_FLYING, compiled_steps.KIND_FLYING_PITCHED)
            else 0
            for d, k in zip(w._order, kinds, strict=True)
        ],
        "flags": [e[0] for e in entries],
        "special": [e[1] for e in entries],
        "pitched": [e[2] for e in entries],
        "tops": tops,
        "groups": [d.group for d in w._order],
        "all_grounded": all(e[0] & 1 for e in entries),
        "special_any": any(e[1] for e in entries),
        "pitched_any": any(e[2] for e in entries),
        "max_top": params_top(w, tops),
    }


def _nan_marked(values: list[float]) -> list:
    return ["nan" if v != v else v for v in values]  # (NaN never equals itself)


def params_top(w: World, tops: list[float]) -> float:
    return w.params.die_size + max([w._wall_top, *tops])


def _actual(w: World) -> dict:
    bodies, shapes, kinds = w._bodies.tolist(), w._shapes.tolist(), w._kind.tolist()
    return {
        "kinds": [
            [int(k), int(p), bool(s)]
            for k, p, s in zip(kinds, w._partner.tolist(), w._stands.tolist(), strict=True)
        ],
        "land_tops": _nan_marked(w._land_tops.tolist()),
        # (an address left from an earlier kind is never read: only the kinds' own count)
        "bodies": [
            b if k == compiled_steps.KIND_PITCHED else 0 for b, k in zip(bodies, kinds, strict=True)
        ],
        "shapes": [
            a if k in (compiled_steps.KIND_FLYING, compiled_steps.KIND_FLYING_PITCHED) else 0
            for a, k in zip(shapes, kinds, strict=True)
        ],
        "flags": w._flags.tolist(),
        "special": w._special_arr.tolist(),
        "pitched": w._pitched_arr.tolist(),
        "tops": w._tops.tolist(),
        "groups": w._groups.tolist(),
        "all_grounded": w._all_grounded,
        "special_any": w._special,
        "pitched_any": w._any_pitched,
        "max_top": w._max_top,
    }


def test_flags_kept_in_place_equal_a_full_refresh_after_every_read(
    standard_board, params, monkeypatch
):
    read, update = view.read, view.update_flags
    seen = {"reads": 0, "updates": 0, "marked": set()}

    def counted_update(w, dice):
        seen["updates"] += 1
        seen["marked"].update(d.id for d in dice)
        update(w, dice)

    def checked_read(w):
        read(w)
        seen["reads"] += 1
        assert _actual(w) == _expected(w), f"step {w.steps}"
        # the rows still show the Space's bodies in its order
        assert [d.body_id for d in w._order] == [w._dice[d.id].body.id for d in w._order]

    monkeypatch.setattr(view, "read", checked_read)
    monkeypatch.setattr(view, "update_flags", counted_update)
    hops = 0
    for seed, offset in ((0, 0.0), (1, 0.5), (2, 0.0), (3, 0.5)):
        w = _break(standard_board, params, seed, offset)
        res = w.run_until_rest(5.0)
        hops += sum(e.type == "hop" for e in res.events)
    assert seen["updates"] > 10 and len(seen["marked"]) > 3 and hops > 0


@pytest.mark.parametrize("seed,offset", [(0, 0.0), (1, 0.5), (2, 0.0), (3, 0.5)])
def test_breaks_end_bit_for_bit_as_with_a_full_refresh(standard_board, params, monkeypatch, seed,
                                                       offset):  # fmt: skip
    w = _break(standard_board, params, seed, offset)
    res = w.run_until_rest(5.0)
    with monkeypatch.context() as m:
        # every change of status re-indexes the rows and refreshes every die's flags
        m.setattr(view, "index_key", lambda w: object())
        ref = _break(standard_board, params, seed, offset)
        res_ref = ref.run_until_rest(5.0)
    assert w.checksum() == ref.checksum()
    assert res.events == res_ref.events and res.steps == res_ref.steps


def test_rows_are_re_indexed_when_a_die_leaves_the_space(flat_world, params):
    w = flat_world
    for k in range(4):
        w.add_die(f"d{k}", 0.05 * k, 0.0, face=1, vx=0.2)
    w.step()
    key = view.index_key(w)
    w.remove_die("d1")
    assert view.index_key(w) != key
    w.step()
    # Chipmunk's order (a removal moves its last body into the gap): the rows follow it
    assert sorted(d.id for d in w._order) == ["d0", "d2", "d3"]
    assert all(w._index[d.id] == i for i, d in enumerate(w._order))
    assert len(w._flags) == len(w._special_arr) == len(w._tops) == len(w._rows) == 3
