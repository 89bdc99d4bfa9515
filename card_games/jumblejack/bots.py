"""The ``smart`` JumbleJack bot: deduction from public statements, then simple greedy choices.

It keeps, for every other player, the pirates still consistent with what they truthfully said
(:mod:`.beliefs`), points at and dresses the Doll toward the player it can most likely match,
declares the difference that tells the table least, and plays its Piece of Eight when the Doll is
(or is about to be) its own pirate. Stateless: everything comes from the observation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from card_games.jumblejack.beliefs import (
    best_one_change,
    candidates,
    chance_of,
    consistent,
    hamming,
    mask_of,
    public_candidates,
)
from jamsumo_sim.turnloop import Action, Agent, SeatView

# Use the token on a non-matching Doll when the forced declaration would leave the table this
# few pirates to choose from for us.
EXPOSED_SET = 2
# Mirror a Doll that is not ours to a player it matches at least this likely.
MIRROR_ATTACK = 0.5


def _pick(view: SeatView, scored: list[tuple[float, Action]]) -> Action:
    """The best-scored action, ties broken with the seat's generator."""
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-12]
    return top[int(view.rng.integers(len(top)))]


class SmartAgent(Agent):
    kind = "smart"

    def act(self, view: SeatView) -> Action:
        handler = self._STAGES.get(view.observation["stage"])
        if handler is None or len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return handler(self, view)

    # -- helpers -----------------------------------------------------------------------------------
    @staticmethod
    def _context(obs: Mapping[str, Any]) -> tuple[list[str], int, int, dict[int, list[int]]]:
        acc = obs["accessories"]
        mine = mask_of(obs["my_pirate"]["wears"], acc)
        doll = mask_of(obs["doll"], acc)
        return acc, mine, doll, candidates(obs)

    # -- stages --------------------------------------------------------------------------------------
    def _declare(self, view: SeatView) -> Action:
        # at set-up every fact halves what the table knows; any will do
        return view.legal_actions[int(view.rng.integers(len(view.legal_actions)))]

    def _point(self, view: SeatView) -> Action:
        acc, _, doll, cands = self._context(view.observation)
        scored = [
            (best_one_change(cands[a["target"]], doll, len(acc)), a) for a in view.legal_actions
        ]
        return _pick(view, scored)

    def _tie(self, view: SeatView) -> Action:
        return self._point(view)

    def _dress(self, view: SeatView) -> Action:
        obs = view.observation
        acc, mine, doll, cands = self._context(obs)
        target = cands[obs["target"]]
        scored = []
        for a in view.legal_actions:
            new = doll ^ (1 << acc.index(a["accessory"]))
            # mainly the match chance; then keep the Doll away from our own pirate, because the
            # target hands it on next round with one more change
            scored.append((100 * chance_of(target, new) + min(hamming(new, mine), 2), a))
        return _pick(view, scored)

    def _respond(self, view: SeatView) -> Action:
        obs = view.observation
        acc, mine, doll, cands = self._context(obs)
        token_moves = [a for a in view.legal_actions if a["response"] in ("mirror", "disguise")]
        declares = [a for a in view.legal_actions if a["response"] == "mismatch"]
        public = public_candidates(obs, obs["seat"])

        def left_after(a: Action) -> int:
            fact = (acc.index(a["accessory"]), bool(a["has"]))
            return sum(1 for m in public if consistent(m, [fact]))

        last_round = obs["centre_rings"] == 1
        mirrors = [a for a in token_moves if a["response"] == "mirror"]
        disguises = [a for a in token_moves if a["response"] == "disguise"]
        best_mirror = (
            max(mirrors, key=lambda a: chance_of(cands[a["target"]], doll)) if mirrors else None
        )
        mirror_odds = chance_of(cands[best_mirror["target"]], doll) if best_mirror else 0.0
        if declares:
            # attack: the unchanged Doll may well be someone else's pirate
            if best_mirror is not None and mirror_odds >= MIRROR_ATTACK:
                return best_mirror
            best = max(declares, key=left_after)
            exposed = hamming(mine, doll) == 1 and left_after(best) <= EXPOSED_SET
            # in the last round, whoever takes the last Ring casts the Final Ritual: keep it
            if not (exposed and token_moves) or last_round:
                return _pick(view, [(float(left_after(a)), a) for a in declares])
        if disguises and (last_round or best_mirror is None or mirror_odds == 0.0):
            return disguises[0]
        if best_mirror is not None:
            return best_mirror
        return view.legal_actions[0]  # an exact match and nothing to escape with

    def _final_dress(self, view: SeatView) -> Action:
        obs = view.observation
        acc, _, _, cands = self._context(obs)
        scored = []
        for a in view.legal_actions:
            outfit = mask_of(a["outfit"], acc)
            scored.append((max(chance_of(c, outfit) for c in cands.values()), a))
        return _pick(view, scored)

    def _final_cast(self, view: SeatView) -> Action:
        acc, _, doll, cands = self._context(view.observation)
        return _pick(view, [(chance_of(cands[a["target"]], doll), a) for a in view.legal_actions])

    _STAGES: dict[str, Callable[[SmartAgent, SeatView], Action]] = {
        "declare": _declare,
        "point": _point,
        "tie": _tie,
        "dress": _dress,
        "respond": _respond,
        "final_dress": _final_dress,
        "final_cast": _final_cast,
    }
