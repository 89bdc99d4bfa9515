"""The host's and a joining client's options: plain data, without websockets (the net extra), so
the command-line parsers can build their flags on the core install."""

from __future__ import annotations

from dataclasses import dataclass

from jamsumo_sim.net.limits import NetLimits, net_limits
from jamsumo_sim.net.protocol import LINGER_S

ON_LEAVE = ("bot", "pause")
REACH_FOR_S = 5.0  # how long a joining client waits for a host that is not listening yet


@dataclass
class HostOptions:
    bind: str = "127.0.0.1"
    port: int = 0
    password: str | None = None
    grace: float = 60.0  # s a dropped seat is kept before ``on_leave`` acts
    on_leave: str = "bot"
    linger: float = LINGER_S
    cert: str | None = None  # TLS: certificate chain (PEM) and its key; clients join with wss://
    key: str | None = None
    limits: NetLimits | None = None  # None: assets/net.toml
    web: bool = False  # also serve the browser page on the same port (net/web_page.py)

    def net_limits(self) -> NetLimits:
        return self.limits if self.limits is not None else net_limits()


@dataclass
class JoinOptions:
    password: str | None = None
    seat: int | None = None
    spectate: bool = False
    name: str = ""
    seed: int = 0  # the client's own bots draw from it (the host's seed stays with the host)
    wait: float = REACH_FOR_S  # s to keep trying a host that is not listening yet
    cafile: str | None = None  # wss://: trust this CA or certificate file (else the system's)
    remember: bool = False  # keep the seat's token in the user's data folder (the commands do)
