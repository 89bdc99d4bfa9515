"""The table's sounds, from the physics events of the shot being shown: wood-on-wood clacks as loud
as the impact, a swish as a flicked die slides off, the drop into the hole, a die falling off the
board.  Synthesised with numpy from ``assets/sounds.toml`` (a fixed seed: the same samples every
run), played through pygame.mixer.  Without an audio device (or muted, ``--mute`` or the V key)
it is silent and harmless: nothing is initialised or played, nothing raises.

The loudness of a clack follows the collision's impulse over the die's mass (the closing speed
the contact took out), between ``speed_quiet`` and ``speed_full``; a few loudness steps are made
once, so a break with many clacks mixes pre-made sounds only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from jamsumo_sim.errors import UserError
from jamsumo_sim.resources import versioned_asset


def load_settings() -> dict[str, Any]:
    """``assets/sounds.toml``; a one-line UserError if it cannot be read."""
    return versioned_asset("sounds.toml")


# --- synthesis (pure numpy: testable without a device) ------------------------------------------


def _time(duration: float, rate: int) -> np.ndarray:
    return np.arange(round(duration * rate)) / rate


def clack(cfg: dict[str, Any], rate: int, rng: np.random.Generator) -> np.ndarray:
    """A unit-peak wood clack: decaying modes plus a short noise click."""
    t = _time(float(cfg["duration"]), rate)
    ring = sum(
        g * np.sin(2 * math.pi * f * t)
        for f, g in zip(cfg["modes"], cfg["mode_gains"], strict=True)
    ) * np.exp(-t / float(cfg["decay"]))
    click = rng.standard_normal(t.size) * np.exp(-t / float(cfg["noise_decay"]))
    return _unit((1 - float(cfg["noise"])) * _unit(ring) + float(cfg["noise"]) * _unit(click))


def slide(cfg: dict[str, Any], rate: int, rng: np.random.Generator) -> np.ndarray:
    """A brushed swish: band-limited noise (difference of two moving averages), rise and fall."""
    t = _time(float(cfg["duration"]), rate)
    lo, hi = (float(v) for v in cfg["band"])
    raw = rng.standard_normal(t.size + 64)
    fast = np.convolve(raw, np.ones(max(1, round(rate / hi))) / max(1, round(rate / hi)), "same")
    slow = np.convolve(raw, np.ones(max(1, round(rate / lo))) / max(1, round(rate / lo)), "same")
    band = (fast - slow)[: t.size]
    env = np.minimum(1.0, t / float(cfg["attack"])) * np.exp(-t / float(cfg["decay"]))
    return _unit(band * env)


def hole(cfg: dict[str, Any], rate: int, rng: np.random.Generator) -> np.ndarray:
    """A hollow knock and a short rattle."""
    t = _time(float(cfg["duration"]), rate)
    knock = np.sin(2 * math.pi * float(cfg["knock"]) * t) * np.exp(-t / float(cfg["knock_decay"]))
    rattle = rng.standard_normal(t.size) * (np.sin(2 * math.pi * 30 * t) > 0.6) * np.exp(-t / 0.1)
    share = float(cfg["rattle"])
    return _unit((1 - share) * _unit(knock) + share * _unit(rattle))


def fall(cfg: dict[str, Any], rate: int, rng: np.random.Generator) -> np.ndarray:
    """A dull thud."""
    t = _time(float(cfg["duration"]), rate)
    thud = np.sin(2 * math.pi * float(cfg["thud"]) * t) * np.exp(-t / float(cfg["thud_decay"]))
    noise = rng.standard_normal(t.size) * np.exp(-t / 0.01)
    share = float(cfg["noise"])
    return _unit((1 - share) * _unit(thud) + share * _unit(noise))


def _unit(x: np.ndarray) -> np.ndarray:
    peak = float(np.max(np.abs(x))) if x.size else 0.0
    return x / peak if peak > 0 else x


def synthesise(settings: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every sound as unit-peak float samples (mono), from one seeded generator in a fixed order."""
    rate = int(settings["sample_rate"])
    rng = np.random.default_rng(int(settings["seed"]))
    return {
        "clack": clack(settings["clack"], rate, rng),
        "slide": slide(settings["slide"], rate, rng),
        "hole": hole(settings["hole"], rate, rng),
        "fall": fall(settings["fall"], rate, rng),
    }


def clack_gain(speed: float, cfg: dict[str, Any]) -> float:
    """Loudness 0..1 of a clack at closing ``speed`` (m/s): 0 below ``speed_quiet``, then rising
    with the speed (the square root: loudness is felt roughly that way) to 1 at ``speed_full``."""
    quiet, full = float(cfg["speed_quiet"]), float(cfg["speed_full"])
    if speed < quiet:
        return 0.0
    share = min(1.0, (speed - quiet) / (full - quiet))
    return float(cfg["min_gain"]) + (1 - float(cfg["min_gain"])) * math.sqrt(share)


@dataclass(frozen=True)
class Cue:
    """One sound to play: which, how loud (0..1), and the physics time it belongs to (s)."""

    name: str
    gain: float
    t: float


def cues(events: Iterable[Any], die_mass: float, settings: dict[str, Any]) -> list[Cue]:
    """The sounds of physics ``events`` (in time order): a clack per collision as loud as its
    closing speed (pairs chattering within ``min_interval`` sound once), a swish per flick, the
    hole and the fall."""
    cfg = settings["clack"]
    gap = float(cfg["min_interval"])
    last: dict[tuple[str, ...], float] = {}
    out = []
    for e in events:
        if e.type == "collision":
            speed = float(e.data.get("impulse", 0.0)) / die_mass
            gain = clack_gain(speed, cfg)
            pair = tuple(sorted(e.dice))
            if gain > 0 and e.t - last.get(pair, -math.inf) >= gap:
                out.append(Cue("clack", gain, float(e.t)))
                last[pair] = float(e.t)
        elif e.type == "flick":
            out.append(Cue("slide", float(settings["slide"]["gain"]), float(e.t)))
        elif e.type == "hole":
            out.append(Cue("hole", float(settings["hole"]["gain"]), float(e.t)))
        elif e.type == "off_board":
            out.append(Cue("fall", float(settings["fall"]["gain"]), float(e.t)))
    return out


# --- playing (pygame.mixer; silent without a device) --------------------------------------------


@dataclass
class SoundPlayer:
    """Plays cues through pygame.mixer; ``enabled`` False (no device, or none wanted) plays nothing."""

    muted: bool = False
    enabled: bool = False
    settings: dict[str, Any] = field(default_factory=dict)
    sounds: dict[tuple[str, int], Any] = field(default_factory=dict)  # (name, level) → Sound
    played: list[Cue] = field(default_factory=list)  # every cue handed over (tests read it)
    cursor: int = 0  # events of the current world already heard

    @classmethod
    def open(cls, muted: bool = False) -> SoundPlayer:
        """Ready to play if an audio device opens (and the sounds file reads); else silent."""
        player = cls(muted=muted)
        try:
            player.settings = load_settings()
        except UserError:
            return player  # a broken sounds file only silences the window
        try:
            rate = int(player.settings["sample_rate"])
            if pygame.mixer.get_init() is None:
                pygame.mixer.init(frequency=rate, size=-16, channels=1, buffer=512)
            freq, _, chans = pygame.mixer.get_init()
            pygame.mixer.set_num_channels(int(player.settings["channels"]))
            player.sounds = _make_sounds(player.settings, freq, chans)
            player.enabled = True
        except (pygame.error, NotImplementedError, TypeError, ValueError):
            player.enabled = False  # no device: silent
        return player

    def toggle(self) -> bool:
        """Mute or unmute; True if now muted."""
        self.muted = not self.muted
        if self.muted and self.enabled:
            pygame.mixer.stop()
        return self.muted

    def start(self, world: Any) -> None:
        """A new shot (its flick already applied): hear its events from its flick on."""
        self.cursor = len(world.events)
        for k in range(len(world.events) - 1, -1, -1):
            e = world.events[k]
            if e.t < world.time:
                break
            if e.type == "flick":
                self.cursor = k
                break

    def hear(self, world: Any) -> list[Cue]:
        """Play the sounds of the events ``world`` logged since the last call."""
        if not self.settings:
            return []
        new = world.events[self.cursor :]
        self.cursor = len(world.events)
        found = cues(new, world.params.die_mass, self.settings)
        self.played.extend(found)
        if self.enabled and not self.muted:
            for cue in found:
                self._play(cue)
        return found

    def _play(self, cue: Cue) -> None:
        levels = int(self.settings["clack"]["levels"]) if cue.name == "clack" else 1
        level = max(0, min(levels - 1, math.ceil(cue.gain * levels) - 1))
        sound = self.sounds.get((cue.name, level))
        if sound is not None:
            sound.play()


def render(found: Iterable[Cue], settings: dict[str, Any], start: float = 0.0) -> np.ndarray:
    """An offline mixdown (float, mono, at ``sample_rate``) of ``found`` cues, each at its physics
    time after ``start``: what the player sends to the device, for tests and exports."""
    rate = int(settings["sample_rate"])
    made = synthesise(settings)
    cues_ = list(found)
    end = max((c.t - start for c in cues_), default=0.0)
    out = np.zeros(round((end + 0.5) * rate))
    volume = float(settings["volume"])
    for c in cues_:
        samples = made[c.name] * c.gain * volume
        at = round((c.t - start) * rate)
        n = min(samples.size, out.size - at)
        out[at : at + n] += samples[:n]
    return out


def _make_sounds(settings: dict[str, Any], freq: int, chans: int) -> dict[tuple[str, int], Any]:
    made = synthesise(settings)
    rate = int(settings["sample_rate"])
    volume = float(settings["volume"])
    out = {}
    for name, samples in made.items():
        if freq != rate:  # the device runs at another rate: resample (linear)
            n = round(samples.size * freq / rate)
            samples = np.interp(
                np.linspace(0, samples.size - 1, n), np.arange(samples.size), samples
            )
        levels = int(settings["clack"]["levels"]) if name == "clack" else 1
        for level in range(levels):
            gain = volume * ((level + 1) / levels if name == "clack" else 1.0)
            pcm = np.clip(samples * gain * 32767, -32768, 32767).astype(np.int16)
            if chans > 1:
                pcm = np.repeat(pcm[:, None], chans, axis=1)
            out[(name, level)] = pygame.mixer.Sound(buffer=np.ascontiguousarray(pcm).tobytes())
    return out
