"""`jamsumo export`: a recorded shot (or a whole match) as MP4, GIF, a self-contained HTML page or a PNG.

The pictures are the window's own drawing (:mod:`jamsumo_sim.ui.draw_board`, ``draw_dice``, ``trails``)
rendered headless; the shots are re-simulated from the replay exactly as executed (with the recorded
execution error at the ``table`` noise level). See docs/export.md.
"""
