"""Settings for every test under tests/."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# No test may depend on wall-clock time: Hypothesis' per-example deadline (200 ms by default) and
# its too-slow health check both time examples by the clock, which a busy machine stretches.
settings.register_profile(
    "no_wall_clock", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# CI (CI set, as .ci/run sets it): the same examples in every run, so CI's verdict is the code's
# and not the draw's (Hypothesis' advice for CI); a developer's run keeps exploring new ones, and
# what it finds is pinned with @example.
settings.register_profile("ci", parent=settings.get_profile("no_wall_clock"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "no_wall_clock")
