"""Four jam-themed card games on the jamsumo turn loop."""

from jamsumo_sim import __version__

__all__ = ["__version__"]
