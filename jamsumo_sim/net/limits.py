"""The limits a host enforces on its connections and queues, read from ``assets/net.toml``.

Plain data (no websockets), so the command-line parsers and tests can read them on the core install.
Tests pass smaller limits with :func:`dataclasses.replace`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

from jamsumo_sim.errors import UserError
from jamsumo_sim.resources import versioned_asset

_FILE = "assets/net.toml"


@dataclass(frozen=True)
class NetLimits:
    handshake_timeout_s: float
    hello_timeout_s: float
    max_pending: int
    max_pending_per_address: int
    max_spectators: int
    spectator_keep_s: float
    max_backlog_messages: int
    max_backlog_bytes: int
    resend_interval_s: float
    resend_max_messages: int
    rest_interval_s: float
    max_refusals_kept: int
    max_chars: int
    rate_per_s: float
    burst: int
    first_delay_s: float
    max_delay_s: float
    addresses_kept: int
    shot_rate_hz: float
    max_shot_bytes: int


@lru_cache(maxsize=1)
def net_limits() -> NetLimits:
    """The limits of ``assets/net.toml`` (a bad file is one line)."""
    data = versioned_asset("net.toml")
    flat = {k: v for table in data.values() if isinstance(table, dict) for k, v in table.items()}
    values = {}
    for f in fields(NetLimits):
        value = flat.get(f.name)
        kind = int if f.type == "int" else float
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise UserError(f"{_FILE}: {f.name} must be a number > 0, not {str(value)[:30]!r}")
        if kind is int and not isinstance(value, int):
            raise UserError(f"{_FILE}: {f.name} must be a whole number, not {value!r}")
        values[f.name] = kind(value)
    return NetLimits(**values)
