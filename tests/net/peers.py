"""Hostile peers for the attack tests: raw WebSocket and TCP connections to a host on the loopback,
and a host that answers with what a test wants."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from jamsumo_sim.net import protocol as wire
from jamsumo_sim.net.host import HostOptions
from jamsumo_sim.net.limits import net_limits


def options(**limits: Any) -> HostOptions:
    """Host options on any free port with some limits of assets/net.toml changed."""
    extra = {
        k: limits.pop(k) for k in ("password", "linger", "grace", "cert", "key") if k in limits
    }
    return HostOptions(port=0, limits=replace(net_limits(), **limits), **{"linger": 1.0, **extra})


async def raw(url: str, **kwargs: Any) -> ClientConnection:
    return await connect(url, compression=None, proxy=None, max_size=None, **kwargs)


async def say(conn: ClientConnection, kind: str, **fields: Any) -> None:
    await conn.send(wire.encode(kind, **fields))


async def hello(url: str, **fields: Any) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection that said hello and got its welcome (or the refusal)."""
    conn = await raw(url)
    await say(conn, "hello", **fields)
    while True:
        message = json.loads(await conn.recv())
        if message["type"] in ("welcome", "error"):
            return conn, message


async def read_all(conn: ClientConnection, quiet_s: float = 0.3) -> list[dict[str, Any]]:
    """Every message until the connection is quiet for ``quiet_s`` or closed."""
    out = []
    with contextlib.suppress(Exception):
        while True:
            out.append(json.loads(await asyncio.wait_for(conn.recv(), quiet_s)))
    return out


async def closed(reader: asyncio.StreamReader) -> bool:
    """Waits until the host closes a raw TCP connection (a hang guard bounds it)."""
    with contextlib.suppress(ConnectionError):
        while await reader.read(4096):
            pass
    return True


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 made now with the openssl command, and its key."""
    openssl = shutil.which("openssl")
    if openssl is None:
        import pytest

        pytest.skip("no openssl command to make a test certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return cert, key
