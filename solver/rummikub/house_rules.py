"""House rules in the CP-SAT turn model (:mod:`solver.rummikub.model`).

Each setting of :class:`~solver.rummikub.rules.Rules` that changes what a legal turn
is gets one ``add_<family>`` function here; :func:`~solver.rummikub.model.build_model`
calls it when the setting asks for it. The legality checker
(:mod:`solver.rummikub.legality`) enforces the same rules from the tables alone.

``joker_retrieval: "replace"``: a table joker leaves its set only when the tile it
stands for takes its place there (in a group: a numbered tile of a colour the group's
numbered tiles lack), and only in a turn that places a rack tile. The set the joker
was in goes on: as one set of the new table holding at least one of its numbered
tiles where they were (a split run goes on as one of its parts).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.rummikub.melds import Meld, MeldKind
from solver.rummikub.model import TurnModel, _sum
from solver.rummikub.rules import Rules


def jokers_held_in_place(rules: Rules, melds: Sequence[Meld]) -> bool:
    """Whether some table set holds a joker that may leave it only for the tile it
    stands for: then every model of the turn must let the table sets go on (see
    :func:`add_joker_replacement`), even the score stage's."""
    return rules.replace_jokers and any(meld.jokers for meld in melds)


def add_joker_replacement(tm: TurnModel) -> None:
    """A table joker leaves its set only for the tile it stands for, in a turn that
    places a rack tile (``joker_retrieval: "replace"``).

    Each table set holding a joker goes on in part (never "whole or not at all",
    see :func:`~solver.rummikub.model.add_continuations`): active = 1. In a run, the
    number each joker stands for stays covered, cover[n_j] = 1: a joker that leaves
    (stays_j = 0) then has the numbered tile (c, n_j) in its place (cover - stays
    counts among that cell's tiles in continued sets, see
    :func:`~solver.rummikub.model.add_run_continuation`). In a group, the jokers that
    leave are at most the numbered tiles that join it, each of a colour the group
    lacked: sum_j (1 - stays_j) <= sum_c added[c]. And a joker leaves only if a rack
    tile is played: 1 - stays_j <= tiles played.
    """
    model = tm.model
    for cont in tm.continuations:
        meld = cont.meld
        jokers = [
            (meant, stay)
            for tile, meant, stay in zip(meld.tiles, meld.stands_for, cont.stays, strict=True)
            if tile.is_joker
        ]
        if not jokers:
            continue
        model.add(cont.active == 1)
        if cont.meld.kind is MeldKind.RUN:
            for meant, _ in jokers:
                model.add(cont.cover[meant.number] == 1)
        else:
            model.add(_sum([1 - stay for _, stay in jokers]) <= _sum(list(cont.added.values())))
        for _, stay in jokers:
            model.add(tm.tiles >= 1 - stay)
