"""rummikub-solver 1.0.0 (PyPI), the peer, run on our positions as faithfully as its
rules allow (``pip install -c constraints.txt -e '.[bench]'``).

It is the integer programme of Den Hertog and Hulshof (2006) written in cvxpy over
an enumerated list of candidate sets, solved by HiGHS: through SciPy's ``milp``
(its ``SCIPY`` backend) or through ``highspy`` (``HIGHS``). From its source
(``rummikub_solver/_ruleset.py`` and ``_solver.py``):

* Candidate sets are runs of L..2L-1 tiles and groups of L..colours tiles (L the
  minimum set length). A joker may stand anywhere in a set of exactly L tiles, but
  in a longer run only inside (never first or last) and never in a longer group;
  see :func:`peer_can_form`. A table whose joker ends a run of L+1 or more tiles,
  or fills a group of four, may have no arrangement in its model at all: it then
  answers "no play".
* ``tiles`` (its TILE_COUNT mode) maximises tiles placed, a joker one tile: our
  objective.
* ``points`` (its TOTAL_VALUE mode) is meant to maximise the face value placed
  (a joker 0; ours counts a joker ``joker_penalty``), but its objective is
  ``sum(tiles[:, None] @ values[None, :])``, the sum of an outer product, which is
  (tiles placed) x (sum of all tile values): it ranks plays by tile count and
  returns a most-tiles play, not a most-points one.
* ``opening`` (its INITIAL mode): new sets from the rack alone worth at least
  ``min_initial_value``, a joker valued as the best tile it can stand for (as
  ours), maximising the *numbered* tiles placed, so it may keep a joker that we
  play. Given a table it goes on to play onto it in the same turn, which our
  rules do not allow, so it gets an empty table and its new sets are put beside
  the table, as ours are. Before solving it gives up when the rack's values (a
  joker as the highest number it can be) sum under the threshold, but it sums a
  *set* of values, so duplicates count once (see :func:`peer_opening_precheck`):
  ``R2 B1 K1 K11 K13 J`` sums 1+2+11+13 = 27 and gets no play, though
  ``K11 J K13`` opens with 36.

Input conversion is not timed; the timed call is ``RuleSet.solve(state, mode)``
on a rule set built once, as a user of the library would hold it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from benchmarks.answers import Answer, judge
from benchmarks.cases import Mode
from solver.i18n import _
from solver.rummikub import JOKER, Colour, Position, Rules, Tile
from solver.rummikub.melds import MeldKind, readings

PACKAGE = "rummikub-solver"
DEFAULT_BACKEND = "SCIPY"
"""HiGHS through SciPy: on this project's machine faster per solve than through
highspy (the library's own default when highspy is installed)."""

MODE_NOTES = {
    Mode.TILES: (
        "comparable",
        "same objective; short where the best play needs a joker at the end of a "
        "long run or in a group of four (not in its set list)",
    ),
    Mode.POINTS: (
        "not comparable",
        "its value objective is (tiles placed) x (sum of all tile values), so it "
        "returns a most-tiles play, not a most-points one; times shown for reference",
    ),
    Mode.OPENING: (
        "comparable",
        "same rule; its objective counts numbered tiles only, so it may keep a joker "
        "we play, and its pre-check sums distinct rack values, so it misses some openings",
    ),
}

# Our colours in order, paired with the peer's colour of the same rank in its own
# order, so the first n colours of one game are the first n of the other.
_PEER_COLOUR_NAMES = {
    Colour.RED: "RED",
    Colour.BLUE: "BLUE",
    Colour.BLACK: "BLACK",
    Colour.ORANGE: "ORANGE",
    Colour.GREEN: "GREEN",
    Colour.YELLOW: "MAGENTA",
    Colour.PURPLE: "WHITE",
    Colour.WHITE: "CYAN",
}


class PeerUnavailable(RuntimeError):
    """The peer is not installed, or cannot play these rules; the message says which."""


class Peer:
    """The peer solver for one rule set."""

    def __init__(self, rules: Rules, backend: str = DEFAULT_BACKEND) -> None:
        try:
            import rummikub_solver
        except ImportError:
            raise PeerUnavailable(
                _(
                    "--peer needs {package}: {install}",
                    package=PACKAGE,
                    install="pip install -c constraints.txt -e '.[bench]'",
                )
            ) from None
        import cvxpy

        installed: list[str] = cvxpy.installed_solvers()  # type: ignore[no-untyped-call]
        if backend not in installed:
            # rummikub-solver takes a missing backend's error for "no play": the peer
            # then answered nothing in 0.3 ms, 90 times as fast as ours.
            raise PeerUnavailable(
                _(
                    "--peer-backend {backend} is not installed (installed: {installed};"
                    " HIGHS: pip install highspy)",
                    backend=backend,
                    installed=", ".join(installed),
                )
            )
        self.version = str(rummikub_solver.__version__)
        self._modes = {
            Mode.TILES: rummikub_solver.SolverMode.TILE_COUNT,
            Mode.POINTS: rummikub_solver.SolverMode.TOTAL_VALUE,
            Mode.OPENING: rummikub_solver.SolverMode.INITIAL,
        }
        try:
            self._rules: Any = rummikub_solver.RuleSet(
                numbers=rules.numbers,
                repeats=rules.copies,
                colours=rules.colours,
                jokers=rules.jokers,
                min_len=rules.min_set_len,
                min_initial_value=rules.opening_threshold,
                solver_backend=rummikub_solver.MILPSolver(backend),
            )
        except ValueError as error:
            raise PeerUnavailable(
                _("{package} cannot play these rules: {error}", package=PACKAGE, error=error)
            ) from None
        self.rules = rules
        peer_colours = list(rummikub_solver.Colour)
        self._to_peer: dict[Tile, Any] = {}
        for colour in rules.colour_list:
            rank = peer_colours.index(rummikub_solver.Colour[_PEER_COLOUR_NAMES[colour]])
            for number in range(1, rules.numbers + 1):
                peer_tile = self._rules.tiles[rank * rules.numbers + number - 1]
                self._to_peer[Tile.natural(colour, number)] = peer_tile
        if rules.jokers:
            self._to_peer[JOKER] = self._rules.tiles[-1]
        self._from_peer = {int(peer): ours for ours, peer in self._to_peer.items()}

    def solve(self, position: Position, mode: Mode) -> Answer:
        """Solve ``position`` as ``mode`` asks, timed; the claimed play judged for legality."""
        asked = mode.position(position)
        state = self._rules.new_game()
        state.add_rack(*self._peer_tiles(asked.rack))
        if mode is not Mode.OPENING:
            state.add_table(*self._peer_tiles(t for tiles in asked.table for t in tiles))
        state.initial = mode is Mode.OPENING
        start = time.perf_counter()
        proposal = self._rules.solve(state, self._modes[mode])
        ms = (time.perf_counter() - start) * 1000
        if proposal is None:
            return Answer(ms, "no play", (), asked.table, ())
        played = self._our_tiles(proposal.tiles)
        sets = tuple(self._our_tiles(tiles) for tiles in proposal.sets)
        table_after = (*asked.table, *sets) if mode is Mode.OPENING else sets
        return Answer(
            ms, "answered", played, table_after, judge(asked, played, table_after, self.rules)
        )

    def _peer_tiles(self, tiles: Iterable[Tile]) -> list[Any]:
        return [self._to_peer[tile] for tile in tiles]

    def _our_tiles(self, tiles: Sequence[Any]) -> tuple[Tile, ...]:
        return tuple(self._from_peer[int(tile)] for tile in tiles)


def peer_can_form(tiles: Sequence[Tile], rules: Rules) -> bool:
    """Whether the peer's set list can build these tiles, as one set or split into
    several: some reading of them cuts into its candidate sets."""
    size = rules.min_set_len
    for meld in readings(tiles, rules):
        jokers = [tile.is_joker for tile in meld.tiles]
        if meld.kind is MeldKind.GROUP:
            if len(jokers) == size or not any(jokers):
                return True
            continue
        # Runs: can the first i tiles be cut into runs of size..2*size-1 tiles, each of
        # exactly `size` tiles or with its jokers inside?
        cut = [True] + [False] * len(jokers)
        for end in range(1, len(jokers) + 1):
            for length in range(size, 2 * size):
                begin = end - length
                if begin >= 0 and cut[begin]:
                    inside = length == size or not (jokers[begin] or jokers[end - 1])
                    cut[end] = cut[end] or inside
        if cut[-1]:
            return True
    return False


def peer_opening_precheck(rack: Sequence[Tile], rules: Rules) -> int:
    """The sum the peer checks against the threshold before an opening: the values
    of the rack's tiles, a joker as the highest number of which the rack lacks a
    copy in some colour, but summed as a set, so each value counts once."""
    held = Counter(rack)
    values = {tile.number for tile in rack if not tile.is_joker}
    for _joker in range(held[JOKER]):
        values.add(
            next(
                number
                for number in range(rules.numbers, 0, -1)
                if any(held[Tile.natural(c, number)] < rules.copies for c in rules.colour_list)
            )
        )
    return sum(values)
