"""Rule constants of The Jam (numbers from the rulebook, and the limits this engine adds)."""

HAND_SIZE = 4
BASKET_SIZE = 8
MAX_PROPOSALS = 2  # trade proposals per turn (keeps the game finite; a refusal is final)
MAX_BUNDLE = 3  # recipes per side of a proposal ("small bundles": keeps proposals few and short)
