"""The fingers `jamsumo validate --finger NAME` compares (assets/fingers.toml) and the finger the
reference builds from the board file (issue 33 item 2: one finger, declared once, in both models)."""

from __future__ import annotations

import re

import pytest

from jamsumo_sim.cli import build_parser
from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.reference.config import load_config
from jamsumo_sim.validate.fingers import load_fingers

GOOD = """version = 1
[pad]
shape = "pad"
finger_pad_width = 0.012
finger_pad_height = 0.008
mu_finger = 0.6
"""


def test_the_cli_offers_the_fingers_of_the_file():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command" or a.choices)
    validate = sub.choices["validate"]
    finger = next(a for a in validate._actions if a.dest == "finger")
    assert sorted(finger.choices) == sorted(load_fingers())


def test_a_finger_replaces_the_board_files_in_both_models():
    params = PhysicsParams.from_board(load_board("standard"))
    cfg = load_config()
    assert (params.finger_pad_height, params.mu_finger, cfg.finger.shape) == (0.0, 0.3, "pad")
    pad_params, pad_cfg = load_fingers()["pad"].apply(params, cfg)
    assert (pad_params.finger_pad_width, pad_params.finger_pad_height) == (0.012, 0.008)
    assert pad_params.mu_finger == 0.6 and pad_cfg.finger.shape == "pad"
    point_params, point_cfg = load_fingers()["point"].apply(params, cfg)
    assert point_cfg.finger.shape == "point" and point_params.mu_finger == 0.3


@pytest.mark.parametrize(
    "text,message",
    [
        (GOOD.replace("version = 1", "version = 2"), "version must be 1"),
        (GOOD.replace('shape = "pad"', 'shape = "thumb"'), "shape must be one of"),
        (GOOD.replace("mu_finger = 0.6\n", ""), "mu_finger must be a number"),
        (GOOD.replace("mu_finger = 0.6", 'mu_finger = "high"'), "mu_finger must be a number"),
        (GOOD.replace("mu_finger = 0.6", "mu_finger = true"), "mu_finger must be a number"),
        (GOOD + "glove = 1\n", "unknown field 'glove'"),
        ("version = 1\npad = 3\n", r"\[pad\] must be a table"),
        ("version = 1\n[pad\n", "not valid TOML"),
    ],
)
def test_a_bad_fingers_file_is_a_one_line_error(text, message):
    with pytest.raises(UserError, match=message) as err:
        load_fingers(text)
    assert "\n" not in str(err.value)


def test_an_out_of_range_finger_is_refused_when_applied():
    bad = load_fingers(GOOD.replace("mu_finger = 0.6", "mu_finger = 5.0"))["pad"]
    params = PhysicsParams.from_board(load_board("standard"))
    with pytest.raises(UserError, match="mu_finger"):
        bad.apply(params, load_config())


def test_the_reference_builds_the_board_files_nail():
    """The finger geom: a box as wide as finger_pad_width, as tall as the nail's edge (0 in the
    board file: nail_thickness), or as tall as a pad."""
    pytest.importorskip("mujoco")
    from jamsumo_sim.reference.build import model_xml

    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    cfg = load_config()

    def finger_size(p) -> list[float]:
        xml = model_xml(board, p, cfg, 1)
        size = re.search(r'<geom name="finger" type="box" size="([^"]+)"', xml).group(1)
        return [float(v) for v in size.split()]

    assert finger_size(params) == pytest.approx(
        [cfg.finger.pad_thickness / 2, 0.006, cfg.finger.nail_thickness / 2]
    )
    pad = params.with_overrides({"finger_pad_height": 0.008, "finger_pad_width": 0.01})
    assert finger_size(pad) == pytest.approx([cfg.finger.pad_thickness / 2, 0.005, 0.004])
