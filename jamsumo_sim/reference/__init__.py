"""A full-3D reference of the die, the board and the finger (issue 33, physics.md s9.3).

MuJoCo (the ``reference`` extra) integrates the rigid bodies and their normal contacts; Coulomb
friction is applied by hand at every contact point, because MuJoCo's own soft-contact friction
pushes a sliding die upward.  One job per module: :mod:`.config` the numerical settings
(assets/reference.toml), :mod:`.geometry` the die's contact points, :mod:`.build` the MuJoCo model,
:mod:`.friction` the hand-applied friction, :mod:`.finger` the finger's pose, :mod:`.run` a shot.
Only :mod:`.build` and :mod:`.run` import MuJoCo, through :func:`jamsumo_sim.extras.require`.
"""
