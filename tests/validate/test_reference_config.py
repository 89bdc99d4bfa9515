"""The reference's settings file (assets/reference.toml) read strictly: a one-line error for a missing
table or key, a value that is not a positive number, and the finger's give a setting of its own."""

from __future__ import annotations

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.reference.config import load_config
from jamsumo_sim.resources import read_asset_text

TEXT = read_asset_text("reference.toml")


def test_the_packaged_settings_load_with_the_fingers_own_give():
    cfg = load_config()
    assert (
        cfg.finger.contact_time > cfg.contacts.timeconst
    )  # a fingertip gives more than a die on wood
    stiffer = cfg.with_stiffer_contacts(2.0)
    assert stiffer.contacts.timeconst == cfg.contacts.timeconst / 2
    assert stiffer.step.dt == cfg.step.dt / 2
    assert stiffer.finger.contact_time == cfg.finger.contact_time


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("contact_time = 0.002", "", "lacks 'contact_time'"),
        ("contact_time = 0.002", 'contact_time = "soft"', "contact_time must be a positive number"),
        ("timeconst = 0.00025", "timeconst = -1.0", "timeconst must be a positive number"),
        ("impact_substeps = 32", "impact_substeps = 2.5", "must be a positive integer"),
        ("[finger]", "[fingers]", "lacks the [finger] table"),
    ],
)
def test_a_bad_settings_file_is_one_clear_line(old, new, said):
    assert old in TEXT
    with pytest.raises(UserError, match=said.replace("[", r"\[").replace("]", r"\]")) as err:
        load_config(TEXT.replace(old, new, 1))
    assert "\n" not in str(err.value)
