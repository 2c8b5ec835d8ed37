"""What a game and its bots offer the tournament runner, whatever the game.

A game in progress (:class:`Match`) says whose turn it is, shows that player a
view, judges a move (:meth:`Match.problems`, empty when legal), applies it and,
once over, gives a :class:`Result`. A :class:`Bot` turns a view into a move. A
:class:`GameSpec` binds a game's name to how it deals a seeded game, builds its
bots and writes a game record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from solver.errors import MeldwiseError, RequestError, quoted
from solver.i18n import _, _n, listed

MAX_SEED = 2**31
"""Largest seed a game deals from (``meldwise game --seed``, ``POST
/v1/rummikub/game``): a tournament whose games would deal from a seed outside 0 to
this is refused, so each of its games replays alone, and a game's record keeps its
seed within it."""


def check_seed(seed: object) -> None:
    """Refuse a ``seed`` to deal a game from that is no whole number 0 to
    :data:`MAX_SEED`: a game dealt from it wrote a record that reading it refused."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RequestError(
            _(
                "{name!r} must be a whole number {low} to {high}, got {value!r}",
                name="seed",
                low=0,
                high=MAX_SEED,
                value=quoted(seed),
            )
        ).naming("seed")


V_contra = TypeVar("V_contra", contravariant=True)
M_co = TypeVar("M_co", covariant=True)


class Bot(Protocol[V_contra, M_co]):
    """A player: ``choose(view) -> move``; deterministic for its seed."""

    name: str

    def choose(self, view: V_contra) -> M_co: ...


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended, seats numbered from 0."""

    winners: tuple[int, ...]
    """Seats that won (several only on a tie)."""
    scores: tuple[int, ...]
    """Each seat's score for the game."""
    turns: int
    end: str
    """The game's own word for how it ended (e.g. ``out``, ``blocked``)."""
    hand_ends: tuple[str, ...] = ()
    """How each hand (deal) of a game of several hands ended, in order, in the game's
    own words; empty for a game of one deal (``end`` says it)."""


class Playing(Protocol):
    """A game in progress, as far as playing it out needs
    (:func:`solver.arena.runner.play_out`)."""

    @property
    def over(self) -> bool: ...

    @property
    def to_move(self) -> int: ...

    def view(self, seat: int | None = None) -> Any: ...

    def apply(self, move: Any) -> object: ...


class Match(Playing, Protocol):
    """A game in progress, as the tournament runner plays it: it judges a move and
    says the game's result."""

    def problems(self, move: Any) -> Sequence[str]: ...

    def result(self) -> Result: ...


class UnknownBot(MeldwiseError):
    """A bot name the game does not have."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game as the tournament runner sees it."""

    name: str
    new_match: Callable[[int, int, Mapping[str, Any]], Match]
    """(seed, players, options) -> a fresh game dealt from the seed."""
    new_bot: Callable[[str, int], Bot[Any, Any]]
    """(bot name, seed) -> the bot; raises :class:`UnknownBot` for a name it lacks."""
    bot_names: tuple[str, ...]
    record: Callable[[Match, Sequence[str]], dict[str, Any]]
    """(finished game, bot names by seat) -> its game record, a JSON object."""
    max_players: int
    """The most players a game seats (its settings' ``players`` range's top)."""
    penalty_scores: bool = False
    """Scores are penalty points (lower is better, Shanghai), not points won."""

    def check_bots(self, names: Sequence[str]) -> None:
        """Raise :class:`UnknownBot` (or another :class:`MeldwiseError`) naming the first
        name this game cannot make a bot of, about its place ``bots[seat]`` (``--bots``
        on the command line: "unknown bot 'foo'" named no flag)."""
        for seat, name in enumerate(names):
            try:
                self.new_bot(name, 0)
            except MeldwiseError as error:
                raise error.about(f"bots[{seat}]") from None


MAX_NAMED = 5
"""The most players a refusal names (a request may hold many)."""


def check_one_out(left: Mapping[str, Sequence[object]], field: str) -> None:
    """Refuse the tiles or cards ``left`` to each player when more than one player has
    none: in either game a round (a hand) ends as soon as one player goes out, so two
    players out is no end a game reaches (each would be scored as the one who went
    out). ``field`` is the request's field the error is about."""
    out = [player for player, pieces in left.items() if not pieces]
    if len(out) > 1:
        named = listed(repr(player) for player in out[:MAX_NAMED])
        if len(out) > MAX_NAMED:
            more = len(out) - MAX_NAMED
            named = _n(
                "{listed} and {n} more player", "{listed} and {n} more players", more, listed=named
            )
        raise MeldwiseError(
            _(
                "only one player goes out, but {n} players have nothing left: {players}",
                n=len(out),
                players=named,
            )
        ).about(field)
