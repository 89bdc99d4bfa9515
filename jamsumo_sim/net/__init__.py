"""Play across a network: host a turn-loop match over WebSockets and join it.

The host is the authority (:mod:`.host`): it keeps the turn loop, checks every move, samples every
chance outcome and records the match. Clients (:mod:`.client`) send moves and receive moves and
outcomes; JamSumo clients re-simulate every shot (:mod:`.mirror`), card-game clients see only their
seat's observation (:mod:`.remote_view`). The wire format and its limits are in :mod:`.protocol`.
"""
