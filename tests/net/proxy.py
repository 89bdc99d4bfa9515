"""A loopback WebSocket proxy that disturbs the messages between clients and a host.

Each message may be delayed (so later ones overtake it), duplicated or dropped, and every
connection is cut after a number of messages; all of it drawn from one seeded generator, so a
failing run can be repeated.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import numpy as np
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed


@dataclass(frozen=True)
class Faults:
    drop: float = 0.05
    duplicate: float = 0.05
    max_delay_s: float = 0.02
    cut_after: int = 150  # messages through one connection before it is cut (0: never)


class FaultProxy:
    def __init__(self, target: str, faults: Faults, seed: int) -> None:
        self.target = target
        self.faults = faults
        self.rng = np.random.default_rng(seed)
        self.port = 0
        self.cuts = 0
        self.dropped = 0
        self.duplicated = 0
        self._server = None

    async def start(self) -> None:
        self._server = await serve(self._handle, "127.0.0.1", 0, max_size=None, compression=None)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _handle(self, down: ServerConnection) -> None:
        async with connect(self.target, max_size=None, compression=None, proxy=None) as up:
            count = [0]
            budget = self.faults.cut_after

            async def pump(src, dst) -> None:  # noqa: ANN001
                async for message in src:
                    count[0] += 1
                    if budget and count[0] >= budget:
                        self.cuts += 1
                        await down.close(1011, "cut")
                        await up.close(1011, "cut")
                        return
                    self._forward(dst, message)

            tasks = [asyncio.create_task(pump(down, up)), asyncio.create_task(pump(up, down))]
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
            await down.close()

    def _forward(self, dst, message) -> None:  # noqa: ANN001
        roll = self.rng.random()
        if roll < self.faults.drop:
            self.dropped += 1
            return
        copies = 2 if roll < self.faults.drop + self.faults.duplicate else 1
        self.duplicated += copies - 1
        for _ in range(copies):
            delay = float(self.rng.uniform(0, self.faults.max_delay_s))
            asyncio.get_running_loop().create_task(self._later(dst, message, delay))

    async def _later(self, dst, message, delay: float) -> None:  # noqa: ANN001
        await asyncio.sleep(delay)
        with contextlib.suppress(ConnectionClosed):
            await dst.send(message)
