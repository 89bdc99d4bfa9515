"""jamsumo: a pymunk simulation of the JamSumo dexterity game, and the shared turn loop."""

__version__ = "0.18.0"
