"""PettingZoo and Gymnasium environments for JamSumo (optional extra: ``jamsumo[rl]``).

Nothing here imports pettingzoo or gymnasium until an environment module is imported.
"""
