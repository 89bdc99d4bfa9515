"""The cheaper bookkeeping of a break (docs/physics.md "Speed"): it must change no result.

- first contacts come from one compiled pass over the cached arbiters (step_kernels.first_contacts)
  instead of a Python loop over all of them;
- a pitched die's compiled step patches its own row of the step's read (view.patch_rows) instead of
  making the next step read every body again;
- a step with contacts kicks the next step into a spare write buffer and keeps its own as the
  velocities its contacts started from (the energy limiter's), instead of copying it;
- reads of body poses in the bookkeeping go through physics/fastbody.py (covered by the breaks'
  checksums here and in the other physics tests).

These are the Python path's mechanisms: the tests here run with the compiled steps off
(physics/compiled_steps.py takes most steps itself; tests/physics/test_compiled_steps.py holds it
to this path bit for bit).
"""

from __future__ import annotations

import numpy as np
import pytest
from physics_helpers import block_break, rest_record

from jamsumo_sim.physics import evolve, step_kernels, view
from jamsumo_sim.world import World


@pytest.fixture(autouse=True)
def _python_path(monkeypatch):
    monkeypatch.setattr(evolve, "COMPILED", False)


def _break(board, params, seed: int, offset: float, height: float = 0.5) -> World:
    return block_break(board, params, seed, offset, chance_seed=500 + seed, height=height)


def test_first_contacts_are_the_flagged_arbiters_in_order():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(0, 40))
        arb = rng.integers(1, 2**40, size=3 * n + 5).astype(np.uintp)
        arb[2 : 3 * n : 3] = rng.random(n) < 0.2
        imp = rng.normal(size=2 * n + 5)
        ids, out = np.zeros(2 * n + 2, dtype=np.uintp), np.zeros(2 * n + 2)
        m = step_kernels.first_contacts(arb, imp, 3 * n, ids, out)
        want = [k for k in range(n) if arb[3 * k + 2]]
        assert m == len(want)
        assert ids[: 2 * m].tolist() == [int(arb[3 * k + c]) for k in want for c in (0, 1)]
        assert out[: 2 * m].tolist() == [float(imp[2 * k + c]) for k in want for c in (0, 1)]


def _reread_instead(w: World) -> None:
    """view.patch_rows' fallback for every patch: the read state is stale, read every body."""
    w._row_patch = []
    w._current = False


# struck high (model 0.13: the nail pitches a die only above 0.744 of the face; a mid-height break
# pitches few dice now that dice grip each other), centred and with spin.  Centred at 0.8: at 0.9
# the striker leaves the board at the strike and bounces on over its landings (model 0.15: a die
# left turning fast about its landing edge flies on), so no step of it is a pitched one.  With spin
# at 0.8: at 0.85 the striker's pad grips it (model 0.16) and it pitches no step on the board
@pytest.mark.parametrize(("offset", "height"), [(0.0, 0.8), (0.5, 0.8)])
def test_breaks_end_bit_for_bit_as_with_a_read_after_every_pitched_step(
    standard_board, params, monkeypatch, offset, height
):
    patched = []
    patch_rows = view.patch_rows

    def counted(w):
        patched.append(bool(w._current and not w._dirty and not w._moved))
        patch_rows(w)

    for seed in (2, 3, 4):  # breaks with dice pitched on the board
        monkeypatch.setattr(view, "patch_rows", counted)
        fast = rest_record(_break(standard_board, params, seed, offset, height))
        monkeypatch.setattr(view, "patch_rows", _reread_instead)
        slow = rest_record(_break(standard_board, params, seed, offset, height))
        assert fast == slow, f"seed {seed}"
    assert sum(patched) > 20, patched  # the patches took the place of many reads


def test_patched_rows_equal_a_fresh_read(standard_board, params, monkeypatch):
    """Bit for bit (signs of zero included): the patched rows are what Chipmunk hands back."""
    checked = [0]
    patch_rows = view.patch_rows

    def checked_patch(w):
        applied = w._current and not w._dirty and not w._moved
        patch_rows(w)
        if applied:
            seen = w._rbase[w._rows].copy()
            w._current = False
            view.read(w)  # (drops the pending kick: the next step recomputes the same one)
            assert np.array_equal(seen.view(np.int64), w._rbase[w._rows].view(np.int64))
            checked[0] += 1

    monkeypatch.setattr(view, "patch_rows", checked_patch)
    for seed, offset in ((2, 0.0), (4, 0.5)):  # breaks with dice pitched on the board
        _break(standard_board, params, seed, offset).run_until_rest(10.0)
    assert checked[0] > 10


def test_contacts_keep_the_velocities_they_started_from(standard_board, params, monkeypatch):
    """The spare write buffer: after a step with contacts the buffer handed to the energy limiter
    as the pre-contact velocities is the kick pushed at the step's start, not the next step's
    kick written after the contacts (which the World's buffer holds then, ready to push)."""
    pushed = {}
    checked = [0]
    push, swap = view.push_velocities, view.swap_write_buffers

    def recording_push(w):
        pushed[id(w)] = (w.steps, w._wbuf[w._rows].copy())
        push(w)

    def checking_swap(w):
        steps, kick = pushed.get(id(w), (-1, None))
        pre = swap(w)
        if steps == w.steps - 1:  # pushed at this step's start (before the steps count went up)
            assert np.array_equal(pre[w._rows], kick)
            assert w._wbuf is not pre and w._wspare[0] is pre
            checked[0] += 1
        return pre

    monkeypatch.setattr(view, "push_velocities", recording_push)
    monkeypatch.setattr(view, "swap_write_buffers", checking_swap)
    for seed, offset in ((0, 0.0), (1, 0.5)):
        _break(standard_board, params, seed, offset).run_until_rest(10.0)
    assert checked[0] > 50
