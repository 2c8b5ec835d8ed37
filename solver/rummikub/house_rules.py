"""House rules: settings of :class:`~solver.rummikub.rules.Rules` that change what a
legal turn is. Each gets one ``add_<family>`` function in the CP-SAT turn model
(:mod:`solver.rummikub.model`: :func:`~solver.rummikub.model.add_joker_replacement`),
which :func:`~solver.rummikub.model.build_model` calls when the setting asks for it;
the legality checker (:mod:`solver.rummikub.legality`) enforces the same rules from
the tables alone.

``joker_retrieval: "replace"``: a table joker leaves its set only when the tile it
stands for takes its place there (in a group: a numbered tile of a colour the group's
numbered tiles lack), and only in a turn that places a rack tile. The set the joker
was in goes on: as one set of the new table holding at least one of its numbered
tiles where they were (a split run goes on as one of its parts).

``wrap_runs``: a run may go round from the top number to 1 (12-13-1), each number at
most once. It changes what a set is, so it lives where sets are read
(:mod:`solver.rummikub.melds`, with :meth:`~solver.rummikub.rules.Rules.run_number`)
and in the run flow of the model
(:func:`~solver.rummikub.model.add_wrapped_runs`).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.rummikub.melds import Meld
from solver.rummikub.rules import Rules


def sets_holding_jokers_in_place(rules: Rules, melds: Sequence[Meld]) -> list[int]:
    """The table sets (indices into ``melds``) holding a joker that may leave only for
    the tile it stands for: every model of the turn must let them go on (see
    :func:`~solver.rummikub.model.add_joker_replacement`), even the score stage's.
    Empty unless ``joker_retrieval`` is "replace".

    Only these sets need to go on; the score stage rebuilds the rest of the table
    from its tiles, as without the rule. Letting every set go on in part there adds
    choices the score does not need: a turn of 17 table sets, one holding a joker,
    was proven so in 0.01 s, and not within 30 deterministic seconds with every set
    going on. Under a binding ``max_jokers_per_set`` of 1 as well, on 78 positions
    of 40-80 table tiles (``mid-t40-60``, ``mid-t60-80``, ``hard-jokers-table``,
    ``t40-r14``): every score proven, median 21 ms, against 17 left unproven at the
    work bound (median 85 ms) with every set going on."""
    if not rules.replace_jokers:
        return []
    return [index for index, meld in enumerate(melds) if meld.jokers]
