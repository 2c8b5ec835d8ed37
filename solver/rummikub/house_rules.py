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


def jokers_held_in_place(rules: Rules, melds: Sequence[Meld]) -> bool:
    """Whether some table set holds a joker that may leave it only for the tile it
    stands for: then every model of the turn must let the table sets go on (see
    :func:`~solver.rummikub.model.add_joker_replacement`), even the score stage's."""
    return rules.replace_jokers and any(meld.jokers for meld in melds)


def sets_going_on(rules: Rules, melds: Sequence[Meld], jokers: int) -> list[int] | None:
    """The table sets (indices into ``melds``) that a score model must let go on when
    jokers are held in place: those holding a joker. The rest of the table is rebuilt
    from its tiles, as without the rule: letting every set go on in part adds choices
    the score does not need (a turn of 17 table sets, one holding a joker, was proven
    in 0.01 s so and not within 30 deterministic seconds with every set going on).

    Under a binding joker limit (``jokers`` in play), every set (None): there the
    search starts from the table as it is, a play it can only express when every set
    goes on (see :func:`~solver.rummikub.search.hint_table_kept`)."""
    if rules.limits_jokers(jokers):
        return None
    return [index for index, meld in enumerate(melds) if meld.jokers]
