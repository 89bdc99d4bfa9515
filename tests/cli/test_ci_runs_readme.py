"""CI runs what a user runs (issue 31): README keeps exactly two commands at the top, and .ci/run
evals both verbatim (the first on a machine without a display), then the oldest dependency set."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _top_block() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block, "README has no bash block"
    return [ln for ln in block.group(1).splitlines() if ln.strip()]


def test_the_readme_has_exactly_two_commands_under_their_headings() -> None:
    lines = _top_block()
    assert len(lines) == 4, lines
    assert lines[0].startswith("# 1. Set up and play") and lines[2].startswith(
        "# 2. Set up and run"
    )
    assert "jamsumo play" in lines[1] and "pytest" in lines[3]
    for command in (lines[1], lines[3]):
        assert command.startswith("python3 -m venv .venv && ")  # nothing but Python needed


def test_ci_runs_both_commands_then_the_oldest_set() -> None:
    run = (ROOT / ".ci" / "run").read_text()
    play = run.index("'^# 1\\. Set up and play'")
    tests = run.index("'^# 2\\. Set up and run the tests'")
    oldest = run.index("bash .ci/oldest")
    assert play < tests < oldest
    # the demo match: no display and no SDL driver for command 1, and no input
    assert "unset SDL_VIDEODRIVER DISPLAY WAYLAND_DISPLAY" in run and '"$play" ) </dev/null' in run
    assert "set -euo pipefail" in run
