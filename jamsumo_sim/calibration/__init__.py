"""Calibration: fit the physics model's friction and restitution to measurements of a real board.

``data`` loads and validates the measurement files, ``model`` turns shots into residuals,
``world_sim`` simulates them with the physics engine (many shots per World), ``fit`` runs the
least-squares fit and its statistics, ``plot`` draws measured against simulated.  The entry point
is :func:`jamsumo_sim.calibrate.calibrate`.
"""
