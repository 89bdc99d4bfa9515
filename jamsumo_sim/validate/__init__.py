"""`jamsumo validate`: the game's pseudo-3D die against the full-3D reference (issue 33).

:mod:`.grid` the shots (a grid of flicks, jittered ensembles, two-die hits), :mod:`.game` a shot in
the game's World, :mod:`.compare` the agreement figures, :mod:`.table` the text table, :mod:`.plot`
the figure, :mod:`.cli` the command.  The reference (jamsumo_sim.reference) needs MuJoCo.
"""
