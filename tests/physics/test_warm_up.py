"""world.warm_up() loads every step kernel a break uses (the window calls it at start, so no
shot stalls while numba loads or compiles one), with the argument types the World passes: a
break after it adds no compiled signature.  In a fresh process, since this one has run others."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.child_limits import cpu_limited, hang_guard

SCRIPT = """
import json
import numpy as np
from jamsumo_sim.physics import step_kernels as k
from jamsumo_sim.physics import compiled_steps as c
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World, warm_up
names = ["kick", "swept_substeps", "finish_model_step", "flag_summary", "note_contacts",
         "contact_groups", "supported", "dice_near", "screen"]
warm_up()
def signatures():
    out = {n: len(getattr(k, n).signatures) for n in names}
    out["run_steps"] = len(c.run_steps.signatures)
    return out
after_warm_up = signatures()
w = World(rng=np.random.default_rng(3))
for i in range(8):
    w.add_die(f"d{i}", (i % 4 - 1.5) * 0.0192, 0.06 + (i // 4) * 0.0192, face=3)
w.add_die("s", -0.15, 0.07, face=3)
w.apply_flick(Flick("s", 0.03, 4.0 * w.params.die_mass, 0.5))
w.run_until_rest(5.0)
after_break = signatures()
print(json.dumps([after_warm_up, after_break]))
"""


def test_warm_up_loads_every_kernel_a_break_uses() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=hang_guard(60),
        preexec_fn=cpu_limited(60),
        check=True,
    )
    after_warm_up, after_break = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(n == 1 for n in after_warm_up.values()), after_warm_up
    assert after_break == after_warm_up
