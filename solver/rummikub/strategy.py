"""How a bot decides a turn: the best play, and the strong bot's policy of
when to play less than that.

The strong bot's policy (the defaults of :class:`Strategy` were found by
measurement, see ``benchmarks/RESULTS.md``):

* go out whenever the best play empties the rack;
* open with the fewest tiles worth the opening threshold;
* keep back the sets that stand on the rack alone (they can be laid down on any
  later turn, and on the table they would help the opponents) and the jokers; play
  the tiles that need the table;
* draw rather than lay down a kept set when nothing else can be played;
* make the best play once the pool is empty. (Hurrying once an opponent's rack is
  small, ``hurry_rack``, won fewer games against ``greedy``: off by default.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import combinations

from solver.cpsat import Budget, Limit, Status, note_status
from solver.errors import MeldwiseError
from solver.i18n import _, _n
from solver.rummikub.engine import Move, Table, View
from solver.rummikub.legality import check_play
from solver.rummikub.melds import Meld, MeldKind, read_meld_or_none
from solver.rummikub.notation import JOKER, Tile, format_tiles
from solver.rummikub.position import Objective, Position
from solver.rummikub.result import Play
from solver.rummikub.rules import Rules
from solver.rummikub.search import SCORE_WORK, solve
from solver.settings import read_knobs

SAFETY_TIME_LIMIT = 60.0
"""Seconds a bot's solve may take at most. Only a safety cap: the score stage of a
turn stops at its deterministic work bound long before it on standard rules, so this
limit never decides a move; a solve it stops (a huge variant on a loaded machine:
8 colours of 19 numbers in 4 copies, racks of 100 tiles) raises :class:`BotError`."""

MOVE_WORK = 2 * SCORE_WORK + 0.5
"""CP-SAT deterministic work (seconds of its own measure) that every search of one
bot move (or of one :func:`best_play` asked alone) may share: the bound of a move,
the same on any machine and under any load (:class:`~solver.cpsat.Budget`). A best
play makes at most two score searches of :data:`~solver.rummikub.search.SCORE_WORK`
each (the count model, then the calm play's model when the first does not prove the
score), and a ``greedy`` move is one best play: the budget leaves its moves as they
were. The 0.5 more covers CP-SAT's overshoot of a search's bound (0.0003
measured) and leaves the strong bot's later questions (its own sets, the loose tiles)
some work after a best play that spent its own, where before they could spend
another 6: a move now does at most 4.5 rather than 10. On standard games a move does
far less: at most 0.0098 in the 4,178 moves of ``strong`` and ``greedy`` of 82
tournament games (2-4 players), where the slowest position found (148 tiles of a big
variant, 6 colours of 26 numbers) spends 4.0 on its best play, both searches stopped
at their bound (11 s of CPU)."""

MOVE_SOLVES = 16
"""CP-SAT searches one bot move may start: a move asks at most 5 (the strong bot: two
for its best play, one for its own sets, two for the loose tiles), so the count only
bounds a policy that would ask more."""


def move_limit() -> Limit:
    """The limit of one bot move's solves: each within the wall-clock safety cap
    (:data:`SAFETY_TIME_LIMIT`), all sharing one deterministic budget
    (:data:`MOVE_WORK`, :data:`MOVE_SOLVES`)."""
    return Limit(SAFETY_TIME_LIMIT, budget=Budget(MOVE_SOLVES, MOVE_WORK))


class BotError(MeldwiseError):
    """A bot could not decide deterministically: a solve it needs was stopped by the
    wall-clock safety cap, which a rerun on another machine or load might not
    repeat. A refusal in words, as bad input is (exit code 2, a 422): as a
    RuntimeError it was a traceback on the command line and a 500 over HTTP."""


def best_play(position: Position, rules: Rules, limit: Limit | None = None) -> Play:
    """The solver's best play, the most tiles (its score stage only: a bot needs no
    calm layout): proven, or the best found within the stage's deterministic work
    bound (some house-rule turns, see docs/games.md), the same on any machine.
    ``limit``: the move's (:func:`move_limit`), whose budget the solve draws on; None:
    a budget of its own."""
    play = solve(
        position,
        rules,
        Objective.TILES,
        limit=move_limit() if limit is None else limit,
        least_disruption=False,
    )
    if play.time_capped:
        raise BotError(
            _(
                "the bot's search was stopped by its {seconds} s safety cap before its"
                " fixed amount of work: a move then depends on the machine's speed, so none"
                " is made",
                seconds=f"{SAFETY_TIME_LIMIT:g}",
            )
        )
    note_status(play.status)
    return play


def table_of(play: Play) -> Table:
    """The table ``play`` leaves, each joker written with the tile it stands for
    (:attr:`Meld.written <solver.rummikub.melds.Meld.written>`): the next turn reads
    each set as the play does (plain, the group ``J K1`` reads as the run K1 K2, and
    under ``joker_retrieval: "replace"`` the engine refuses that re-reading)."""
    return tuple(meld.written for meld in play.table)


def move_of(play: Play, view: View | None = None) -> Move:
    """Play ``play``, or draw when it places nothing. Given the ``view`` the play was
    solved from, each table joker stands for what it stood for there when its set can
    still read it so (:func:`calm_jokers`)."""
    if not play.played:
        return Move.draw()
    table = table_of(play)
    if view is not None:
        calm = calm_jokers(table, view.table, view.rules)
        if check_play(view.rack, view.table, calm, view.opened[view.seat], view.rules).legal:
            table = calm
    return Move.play(table)


def calm_jokers(after: Table, before: Table, rules: Rules) -> Table:
    """``after`` with each set that holds a joker written as a set of ``before`` it
    shares numbered tiles with reads its jokers, when it can read them so: a set that
    is still the same tiles as it was is written as it was. The score stage reads every
    set afresh, so without this a set the play leaves alone could come back with its
    joker standing elsewhere (``R5 R6 J(R4)`` as ``R5 R6 J(R7)``): a legal move under
    ``joker_retrieval: "free"``, but a table joker moved that the play did not need to
    move."""
    olds = [(tiles, meld) for tiles in before if (meld := read_meld_or_none(tiles, rules))]
    olds = [(tiles, meld) for tiles, meld in olds if meld.jokers]
    out = list(after)
    done: set[int] = set()
    # Sets still the same tiles first, so that a set grown from another copy of them
    # does not take the reading of one the play left alone.
    for exact in (True, False):
        for index, tiles in enumerate(after):
            for old_index, (old_tiles, old) in enumerate(olds):
                if index in done or (exact and Counter(tiles) != Counter(old.tiles)):
                    continue
                kept = _as_before(tiles, old_tiles, old, rules)
                if kept is not None:
                    out[index] = kept
                    done.add(index)
                    del olds[old_index]
                    break
    return tuple(out)


def _as_before(
    tiles: tuple[Tile, ...], old_tiles: tuple[Tile, ...], old: Meld, rules: Rules
) -> tuple[Tile, ...] | None:
    """``tiles`` (a set after the play) with its jokers standing for what ``old``'s
    stood for, or None when ``tiles`` share no numbered tile with ``old``, hold another
    count of jokers, or cannot be read so."""
    naturals = Counter(t for t in tiles if not t.is_joker)
    old_naturals = Counter(t for t in old.tiles if not t.is_joker)
    jokers = len(tiles) - naturals.total()
    if jokers != old.jokers or not naturals & old_naturals:
        return None
    if naturals == old_naturals:
        return old_tiles
    meant = [m for t, m in zip(old.tiles, old.stands_for, strict=True) if t.is_joker]
    said = [*naturals.elements(), *(Tile(None, 0, m) for m in meant)]
    meld = read_meld_or_none(said, rules)
    if meld is None:
        return None
    read = Counter(m for t, m in zip(meld.tiles, meld.stands_for, strict=True) if t.is_joker)
    return meld.written if read == Counter(meant) else None


def own_sets(rack: tuple[Tile, ...], rules: Rules, limit: Limit | None = None) -> Play:
    """The most rack tiles that form sets on their own (no table, no threshold), within
    ``limit`` as :func:`best_play`."""
    alone = Position(rack, (), opened=False)
    return best_play(alone, replace(rules, opening_threshold=0), limit)


def best_reason(best: Play) -> str:
    """The reason of a decision that is simply the best play, ``best``: the best play
    found when its search stopped before proving it."""
    if best.status is not Status.OPTIMAL:
        return _("it makes the best play it found")
    return _("it makes the best play")


class Stuck(Enum):
    """What the strong bot does when only tiles it keeps back could be played."""

    DRAW = "draw"
    SET = "set"
    """Lay down the smallest set it keeps back."""
    ALL = "all"
    """Make the best play."""


@dataclass(frozen=True, slots=True)
class Strategy:
    """The knobs of the strong bot's policy."""

    hold_sets: bool = True
    """Keep back the sets that stand on the rack alone."""
    hold_jokers: bool = True
    """Keep back the jokers."""
    small_opening: bool = True
    """Open with the fewest tiles worth the threshold (else with the best play)."""
    hurry_rack: int = 0
    """Play the best play once an opponent holds this many tiles or fewer (0: never)."""
    hurry_pool: int = 0
    """Play the best play once the pool holds this many tiles or fewer."""
    stuck: Stuck = Stuck.DRAW

    @classmethod
    def parse(cls, text: str) -> Strategy:
        """Read overrides such as ``hurry_rack=3+stuck=set`` (for experiments,
        :func:`~solver.settings.read_knobs`). ``+`` separates knobs, as in a Shanghai
        bot name, since a tournament's ``--bots`` is comma-separated; ``,`` does too
        where no bot list is split (``make_bot``)."""
        return cls(**read_knobs(cls, text, "+,"))


@dataclass(frozen=True, slots=True)
class Decision:
    """A turn decided: the move, the best play it was measured against, and why."""

    move: Move
    best: Play
    """The best play (most tiles, see :func:`best_play`)."""
    played: tuple[Tile, ...]
    """The rack tiles the move places."""
    reason: str
    nudge_reason: str | None = None
    """The reason as a nudge may give it, not saying how the rack is made up (that
    sets stand on it alone, and how many); None when ``reason`` says nothing of it."""


@dataclass(frozen=True, slots=True)
class Advice:
    """What the strong bot would do beside the best play: the hint's strategic advice."""

    holds_back: bool
    """It would place fewer tiles than its own best play (or draw): the bot's best play,
    which may place more tiles than a hint whose time limit cut its search."""
    draws: bool
    plays: tuple[Tile, ...]
    """The rack tiles it would place."""
    keeps: tuple[Tile, ...]
    """Tiles of the best play it would keep on the rack."""
    text: str


def advise(
    view: View,
    strategy: Strategy | None = None,
    *,
    name_tiles: bool = True,
    name_sets: bool = True,
    shown: Sequence[Tile] | None = None,
) -> Advice:
    """The strong bot's advice for ``view``: whether it would hold back, and why.
    ``name_tiles`` false: the text names no tile (for a hint level that does not
    reveal the play). ``name_sets`` false: nor says that sets stand on the rack alone
    (for the nudge, which tells only whether a play exists and how many tiles it
    places). ``shown``: the tiles of the best play the hint shows, which ``keeps`` is
    said of (the bot's own best play, when None): of plays placing as many tiles the
    hint's least-disruption stage and the bot's score stage may pick different ones.
    When ``shown`` places another count of tiles than the bot's best play (the hint's
    search cut by its time limit, which the bot's is not; another objective), the text
    says the count as its own search's ("The strong bot's own search finds a play of 5
    tiles, where this answer places 0; ...")."""
    if not view.rack:
        # A player whose rack is empty has gone out: the round is over, so there is no
        # tile to draw either (it said "the strong bot would draw too").
        text = _(
            "The strong bot would neither play nor draw: a player whose rack is empty has gone out."
        )
        return Advice(False, False, (), (), text)
    decision = decide(view, strategy or Strategy())
    if not name_sets and decision.nudge_reason is not None:
        decision = replace(decision, reason=decision.nudge_reason)
    best = decision.best
    kept = Counter(best.played if shown is None else shown)
    kept.subtract(decision.played)
    keeps = tuple(sorted((+kept).elements()))
    holds_back = len(decision.played) < best.tiles_played
    # "The best play too" only of a best play proven: the bot's own search may stop
    # at its work bound before it (a large house-rule variant), having found less.
    proven = best.status is Status.OPTIMAL
    # Drawing from an empty pool is a pass: the bot neither plays nor draws.
    draws = decision.move.is_draw and view.pool_size > 0
    # The answer a time limit cut (or of another objective) may place other than the
    # bot's own best play: the advice then says what it counts, not "the 5 tiles"
    # beside an answer that found none.
    counted = best.tiles_played if shown is None else len(shown)
    elsewhere = bool(best.played) and counted != best.tiles_played
    if elsewhere:
        text = _elsewhere(decision, holds_back, name_tiles, counted)
    elif not best.played and not proven and not draws:
        text = _(
            "The strong bot's search stopped before finding a play: it would pass, the pool"
            " being empty."
        )
    elif not best.played and not proven:
        text = _("The strong bot's search stopped before finding a play: it would draw.")
    elif not best.played and not draws:
        text = _("There is no play, and the pool is empty: the strong bot would pass.")
    elif not best.played:
        # Not "the best play too: there is no play": there is none to make.
        text = _("There is no play: the strong bot would draw too.")
    elif not holds_back and not proven and decision.reason == best_reason(best):
        text = _("The strong bot would make the best play it found.")
    elif not holds_back and not proven:
        text = _("The strong bot would make the best play it found: {why}.", why=decision.reason)
    elif not holds_back and decision.reason == best_reason(best):
        text = _("The strong bot would make the best play too.")
    elif not holds_back:
        text = _("The strong bot would make the best play too: {why}.", why=decision.reason)
    elif decision.move.is_draw:
        text = _n(
            "The strong bot would draw rather than play the {n} tile it could: {why}.",
            "The strong bot would draw rather than play the {n} tiles it could: {why}.",
            best.tiles_played,
            why=decision.reason,
        )
    elif not name_tiles:
        text = _n(
            "The strong bot would play only {played} of the {n} tile: {why}.",
            "The strong bot would play only {played} of the {n} tiles: {why}.",
            best.tiles_played,
            played=len(decision.played),
            why=decision.reason,
        )
    else:
        text = _n(
            "The strong bot would play only {played} of the {n} tile ({tiles}): {why}.",
            "The strong bot would play only {played} of the {n} tiles ({tiles}): {why}.",
            best.tiles_played,
            played=len(decision.played),
            tiles=format_tiles(decision.played),
            why=decision.reason,
        )
    if not proven and (holds_back or elsewhere):
        text = _("{advice} Its search stopped before proving the best play.", advice=text)
    return Advice(holds_back, draws, decision.played, keeps, text)


def _elsewhere(decision: Decision, holds_back: bool, name_tiles: bool, shown: int) -> str:
    """The advice beside an answer that places ``shown`` tiles, not as many as the
    bot's own best play: that play's count said as its own search's."""
    best = decision.best
    if not holds_back and decision.reason == best_reason(best):
        return _n(
            "The strong bot's own search finds a play of {n} tile, where this answer places"
            " {shown}, and it would make it.",
            "The strong bot's own search finds a play of {n} tiles, where this answer places"
            " {shown}, and it would make it.",
            best.tiles_played,
            shown=shown,
        )
    if not holds_back:
        return _n(
            "The strong bot's own search finds a play of {n} tile, where this answer places"
            " {shown}, and it would make it: {why}.",
            "The strong bot's own search finds a play of {n} tiles, where this answer places"
            " {shown}, and it would make it: {why}.",
            best.tiles_played,
            shown=shown,
            why=decision.reason,
        )
    if decision.move.is_draw:
        return _n(
            "The strong bot's own search finds a play of {n} tile, where this answer places"
            " {shown}, but it would draw rather than play it: {why}.",
            "The strong bot's own search finds a play of {n} tiles, where this answer places"
            " {shown}, but it would draw rather than play them: {why}.",
            best.tiles_played,
            shown=shown,
            why=decision.reason,
        )
    if not name_tiles:
        return _n(
            "The strong bot's own search finds a play of {n} tile, where this answer places"
            " {shown}; it would play only {played} of it: {why}.",
            "The strong bot's own search finds a play of {n} tiles, where this answer places"
            " {shown}; it would play only {played} of them: {why}.",
            best.tiles_played,
            shown=shown,
            played=len(decision.played),
            why=decision.reason,
        )
    return _n(
        "The strong bot's own search finds a play of {n} tile, where this answer places"
        " {shown}; it would play only {played} of it ({tiles}): {why}.",
        "The strong bot's own search finds a play of {n} tiles, where this answer places"
        " {shown}; it would play only {played} of them ({tiles}): {why}.",
        best.tiles_played,
        shown=shown,
        played=len(decision.played),
        tiles=format_tiles(decision.played),
        why=decision.reason,
    )


def decide(view: View, strategy: Strategy) -> Decision:
    """The strong bot's turn (see the module docstring): its solves share one move's
    budget (:func:`move_limit`)."""
    rules = view.rules
    limit = move_limit()
    best = best_play(view.position, rules, limit)
    if not best.played:
        # Move.draw() is a pass when the pool is empty (it said "it draws" then too).
        if best.status is not Status.OPTIMAL and view.pool_size:  # a bound struck
            why = _("no play was found before the search stopped: it draws")
        elif best.status is not Status.OPTIMAL:
            why = _("no play was found before the search stopped: it passes, the pool being empty")
        elif view.pool_size:
            why = _("there is no play: it draws")
        else:
            why = _("there is no play: it passes, the pool being empty")
        return Decision(Move.draw(), best, (), why)
    if not best.rack_left:
        return Decision(move_of(best, view), best, best.played, _("the best play empties the rack"))
    if not view.opened[view.seat]:
        return _opening(view, best, strategy)
    hurry = _hurry(view, strategy)
    if hurry:
        return Decision(move_of(best, view), best, best.played, hurry)
    kept: Counter[Tile] = Counter()
    if strategy.hold_jokers:
        kept.update(t for t in view.rack if t.is_joker)
    sets = None
    if strategy.hold_sets:
        sets = own_sets(tuple(t for t in view.rack if not t.is_joker), rules, limit)
        kept.update(sets.played)
    if not kept:
        return Decision(move_of(best, view), best, best.played, best_reason(best))
    loose = Counter(view.rack)
    loose.subtract(kept)
    play = best_play(Position(tuple(sorted(loose.elements())), view.table, True), rules, limit)
    if play.played:
        return Decision(
            move_of(play, view), best, play.played, _kept_reason(kept, sets), _nudge(sets)
        )
    if strategy.stuck is Stuck.SET and sets is not None and sets.played:
        smallest = _smallest_set(sets)
        table = (*view.table, smallest.tiles)
        return Decision(
            Move.play(table),
            best,
            tuple(sorted(smallest.tiles)),
            _(
                "only tiles it keeps back could be played, so it lays down one set of its own"
                " rather than draw"
            ),
        )
    if strategy.stuck is Stuck.DRAW and view.pool_size > 0:
        return Decision(Move.draw(), best, (), _kept_reason(kept, sets), _nudge(sets))
    return Decision(move_of(best, view), best, best.played, best_reason(best))


def _hurry(view: View, strategy: Strategy) -> str:
    """Why the bot should play its best now, or ''."""
    smallest = min(view.rack_sizes[seat] for seat in view.opponents())
    if smallest <= strategy.hurry_rack:
        return _n(
            "an opponent holds only {n} tile, so it plays all it can",
            "an opponent holds only {n} tiles, so it plays all it can",
            smallest,
        )
    if view.pool_size <= strategy.hurry_pool and view.pool_size:
        return _n(
            "the pool is down to {n} tile, so it plays all it can",
            "the pool is down to {n} tiles, so it plays all it can",
            view.pool_size,
        )
    if view.pool_size <= strategy.hurry_pool:
        return _("the pool is empty, so it plays all it can")
    return ""


def _kept_reason(kept: Counter[Tile], sets: Play | None) -> str:
    parts = []
    if sets is not None and sets.played:
        parts.append(
            _n(
                "{n} set that stands on the rack alone",
                "{n} sets that stand on the rack alone",
                len(sets.table),
            )
        )
    if kept[JOKER]:
        parts.append(_n("the joker", "{n} jokers", kept[JOKER]))
    things = (len(sets.table) if sets is not None and sets.played else 0) + kept[JOKER]
    return _n(
        "it keeps back {kept}, which can go down on any later turn, while on the table the"
        " opponents could use it",
        "it keeps back {kept}, which can go down on any later turn, while on the table the"
        " opponents could use them",
        things,
        kept=_("{first} and {second}", first=parts[0], second=parts[1])
        if len(parts) == 2
        else parts[0],
    )


def _nudge(sets: Play | None) -> str | None:
    """The kept reason without the sets that stand on the rack alone, when it has
    them."""
    if sets is None or not sets.played:
        return None
    return _(
        "it keeps back tiles that can go down on any later turn, while on the table the"
        " opponents could use them"
    )


def _smallest_set(sets: Play) -> Meld:
    return min(sets.table, key=lambda m: (m.jokers, len(m.tiles), m.value))


def _opening(view: View, best: Play, strategy: Strategy) -> Decision:
    if not strategy.small_opening:
        return Decision(move_of(best, view), best, best.played, _opens_with(best))
    melds = smallest_opening(best.table[len(view.table) :], view.rules)
    tiles = tuple(sorted(t for m in melds for t in m.tiles))
    kept = best.tiles_played - len(tiles)
    # Said only of what it keeps: an opening of the best play's one set once "kept the
    # other sets hidden", and a trimmed run's lone tile is no set.
    return Decision(
        Move.play((*view.table, *(m.written for m in melds))),
        best,
        tiles,
        _n(
            "it opens with {points} points, enough to open, and keeps {n} tile of the best"
            " play back for later",
            "it opens with {points} points, enough to open, and keeps {n} tiles of the best"
            " play back for later",
            kept,
            points=sum(m.value for m in melds),
        )
        if kept
        else _opens_with(best),
    )


def _opens_with(best: Play) -> str:
    if best.status is not Status.OPTIMAL:
        return _("it opens with the best play it found")
    return _("it opens with the best play")


MAX_OPENING_SUBSETS = 4096
"""The most subsets of an opening's sets :func:`smallest_opening` trims. Every subset
was tried: 2^n of them, so a strong bot's opening of 30 sets (a 50-tile hand under
``min_set_len`` 2) took minutes of a move bounded to 4.5 deterministic seconds of
solving, and of 40 sets days. An opening of the standard game has at most 5 sets
(31 subsets): every one is still tried."""


def smallest_opening(melds: tuple[Meld, ...], rules: Rules) -> tuple[Meld, ...]:
    """The fewest tiles among ``melds`` (an opening's new sets) still worth the
    opening threshold: a subset of the sets, runs trimmed from their low end and
    groups by a tile while they stay sets and the total stays at the threshold.

    Subsets are tried smallest first, and only while they can still hold fewer tiles
    (a set keeps ``min_set_len`` tiles or more); beyond :data:`MAX_OPENING_SUBSETS`
    of them the fewest found are kept, or the most valuable sets enough to open when
    they hold fewer tiles (``melds`` themselves at worst)."""
    best: tuple[Meld, ...] = melds
    best_key = _cost(melds)
    tried = 0
    for size in range(1, len(melds) + 1):
        if (size * rules.min_set_len, 0) >= best_key:
            break  # every subset of this size or more holds as many tiles or more
        for subset in combinations(melds, size):
            if tried == MAX_OPENING_SUBSETS:
                richest = _richest(melds, rules.opening_threshold)
                trimmed = _trim(richest, rules)
                if trimmed is not None and _cost(trimmed) < best_key:
                    best = trimmed
                return best
            tried += 1
            trimmed = _trim(subset, rules)
            if trimmed is not None and _cost(trimmed) < best_key:
                best, best_key = trimmed, _cost(trimmed)
    return best


def _richest(melds: tuple[Meld, ...], threshold: int) -> tuple[Meld, ...]:
    """The most valuable of ``melds`` (by value per tile), taken until they are worth
    ``threshold``."""
    taken: list[Meld] = []
    for meld in sorted(melds, key=lambda m: (-m.value / len(m.tiles), m.jokers)):
        if sum(m.value for m in taken) >= threshold:
            break
        taken.append(meld)
    return tuple(taken)


def _cost(melds: tuple[Meld, ...]) -> tuple[int, int]:
    return (sum(len(m.tiles) for m in melds), sum(m.jokers for m in melds))


def _trim(melds: tuple[Meld, ...], rules: Rules) -> tuple[Meld, ...] | None:
    total = sum(m.value for m in melds)
    if total < rules.opening_threshold:
        return None
    out = []
    for meld in melds:
        # A run loses its lowest tile, a group its last one (all are worth the same),
        # never its last numbered tile: a set of jokers alone is no set.
        cut = 0 if meld.kind is MeldKind.RUN else len(meld.tiles) - 1
        while len(meld.tiles) > rules.min_set_len:
            worth = meld.stands_for[cut].number
            if total - worth < rules.opening_threshold:
                break
            if not meld.tiles[cut].is_joker and len(meld.tiles) - meld.jokers == 1:
                break
            total -= worth
            tiles, meant = list(meld.tiles), list(meld.stands_for)
            del tiles[cut], meant[cut]
            meld = Meld(meld.kind, tuple(tiles), tuple(meant))
            cut = min(cut, len(meld.tiles) - 1)
        out.append(meld)
    return tuple(out)
