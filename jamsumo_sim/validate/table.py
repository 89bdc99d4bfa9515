"""The agreement table as text."""

from __future__ import annotations

from typing import Any


def _f(x: Any, fmt: str = ".3g") -> str:
    return "-" if x is None else format(x, fmt)


def render(summary: dict[str, Any]) -> str:
    lines = [
        "flick grid (game / 3D): speed m/s (centred mid-height launch), height, offset",
        f"{'v':>4} {'h':>4} {'off':>4} | {'distance m':>15} {'ratio':>6} | {'stop s':>11} | "
        f"{'1/4 turns':>9} | {'rise mm':>11} | face",
    ]
    for c in summary["cells"]:
        g, r = c["game"], c["ref"]
        lines.append(
            f"{c['speed']:4.1f} {c['height']:4.1f} {c['offset']:4.1f} | "
            f"{g['distance']:7.3f}/{r['distance']:<7.3f} {_f(c['distance_ratio'], '6.2f')} | "
            f"{g['stop_time']:5.2f}/{r['stop_time']:<5.2f} | "
            f"{g['quarter_turns']:4d}/{r['quarter_turns']:<4d} | "
            f"{1e3 * g['rise']:5.1f}/{1e3 * r['rise']:<5.1f} | {g['face']}/{r['face']}"
        )
    lines.append("")
    lines.append("speed x height groups (medians over offsets): distance ratio, 1/4 turns, rise mm")
    for gr in summary["groups"]:
        qt, rs = gr["quarter_turns"], gr["rise"]
        lines.append(
            f"{gr['speed']:4.1f} {gr['height']:4.1f} | ratio {_f(gr['distance_ratio'], '5.2f')} | "
            f"turns {_f(qt[0])}/{_f(qt[1])} | rise {1e3 * rs[0]:.1f}/{1e3 * rs[1]:.1f} | "
            f"same face {gr['same_face']}/{gr['cells']}"
        )
    e = summary["ensemble"]
    lines.append("")
    lines.append(
        f"jittered hard high flicks (n={e['n']}): faces game {e['faces_game']} 3D {e['faces_ref']}, "
        f"total-variation distance {_f(e['tv_distance'], '.2f')} (one distribution sampled twice: "
        f"{_f(e['tv_noise'], '.2f')} on average; permutation p {_f(e['tv_p'], '.2f')}); median 1/4 turns "
        f"{_f(e['quarter_turns_median'][0])}/{_f(e['quarter_turns_median'][1])}"
    )
    for h in summary["hits"]:
        lines.append(
            f"hit {h['name']}: struck die leaves at {h['direction_deg'][0]:.1f}/"
            f"{h['direction_deg'][1]:.1f} deg, {h['speed'][0]:.3f}/{h['speed'][1]:.3f} m/s "
            f"(ratio {_f(h['speed_ratio'], '.3f')})"
        )
    return "\n".join(lines)
