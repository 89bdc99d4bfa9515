"""Rule constants of The Jam (numbers from the rulebook, and the limits this engine adds)."""

HAND_SIZE = 4
BASKET_SIZE = 8
MAX_PROPOSALS = 2  # trade proposals per turn (keeps the game finite; a refusal is final)
# A proposal holds any number of made recipes on either side (the rulebook: "no limits on
# quantity"), at least one in all; the number of proposals per turn is what bounds the game.
TRAVEL_MAX_SWAP = 3  # a travel blind swap is 1-3 recipes (the rulebook)
# Keys of a made recipe (beside card/under/since) for an ingredient played face down from the
# hand: its card ids, and the seats that may see their recipe half (the others see the fruit).
FACE_DOWN = "face_down"
SEEN_BY = "seen_by"
FACE_DOWN_PREFIX = "face-down:"  # how others see such a card in an observation: "face-down:cherry"
