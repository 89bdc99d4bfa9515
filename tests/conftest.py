"""Settings for every test under tests/."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# No test may depend on wall-clock time: Hypothesis' per-example deadline (200 ms by default) and
# its too-slow health check both time examples by the clock, which a busy machine stretches.
settings.register_profile(
    "no_wall_clock", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("no_wall_clock")
