"""Contracts: the melds a player must lay, all at once, to go down.

The standard table gives the contract of each of the 10 hands; a request may give
its own as minimum sizes (``{"sets": [3, 3], "runs": [4]}``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.errors import RequestError, quoted
from solver.i18n import _, _n
from solver.shanghai.rules import MAX_RUN_LEN, STANDARD, Rules

HANDS = 10
MAX_MELDS = 6


@dataclass(frozen=True, slots=True)
class Contract:
    """Minimum sizes of the sets and runs to lay (sorted ascending)."""

    sets: tuple[int, ...] = ()
    runs: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # Made directly, Contract(sets=[3]) (a list) broke the advice's cache, and
        # Contract(sets=(4, 3)) differed from (3, 4).
        for name in ("sets", "runs"):
            sizes = getattr(self, name)
            whole = isinstance(sizes, tuple | list)
            if not whole or not all(isinstance(n, int) and not isinstance(n, bool) for n in sizes):
                raise RequestError(
                    _(
                        "contract {name!r} must be a list of sizes, got {value!r:.60}",
                        name=name,
                        value=quoted(sizes),
                    )
                )
            object.__setattr__(self, name, tuple(sorted(sizes)))

    @classmethod
    def for_hand(cls, hand_number: int, rules: Rules = STANDARD) -> Contract:
        """The standard contract of hand 1..10 under ``rules``: a meld of it at least as
        long as the rules let any set or run be (under ``min_set_len`` 4, hand 1's
        two sets of 3 are two sets of 4)."""
        if isinstance(hand_number, bool) or not isinstance(hand_number, int):
            raise RequestError(
                _(
                    "'hand_number' must be a whole number 1-10, got {value!r:.60}",
                    value=quoted(hand_number),
                )
            ).naming("hand_number")
        if not 1 <= hand_number <= HANDS:
            raise RequestError(
                _(
                    "{name!r} must be {lowest} to {highest}, got {value}",
                    name="hand_number",
                    lowest=1,
                    highest=HANDS,
                    value=quoted(hand_number),
                )
            ).naming("hand_number")
        standard = STANDARD_CONTRACTS[hand_number]
        return cls(
            tuple(max(n, rules.min_set_len) for n in standard.sets),
            tuple(max(n, rules.min_run_len) for n in standard.runs),
        )

    @classmethod
    def from_dict(cls, value: Any, rules: Rules) -> Contract:
        """Read ``{"sets": [3, 3], "runs": [4]}`` and check it against ``rules``."""
        if not isinstance(value, Mapping):
            raise RequestError(
                _(
                    "'contract' must be an object like {example}, got {value!r:.60}",
                    example='{"sets": [3, 3], "runs": [4]}',
                    value=quoted(value),
                )
            ).naming("contract")
        for name in value:
            if name not in ("sets", "runs"):
                error = RequestError(
                    _("unknown contract field {name!r}; fields are sets, runs", name=name)
                )
                error.places = ((("contract", name), repr(name)),)
                raise error
        sizes: dict[str, tuple[int, ...]] = {}
        for name in ("sets", "runs"):
            items = value.get(name, [])
            if not isinstance(items, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in items
            ):
                error = RequestError(
                    _(
                        "contract {name!r} must be a list of sizes, got {value!r:.60}",
                        name=name,
                        value=quoted(items),
                    )
                )
                error.places = ((("contract", name), repr(name)),)
                raise error
            sizes[name] = tuple(sorted(items))
        contract = cls(sizes["sets"], sizes["runs"])
        try:
            contract.check(rules)
        except RequestError as error:
            # The fields it quotes are the request's contract's.
            error.places = tuple(((("contract", *at), shown) for at, shown in error.places))
            raise
        return contract

    def check(self, rules: Rules) -> None:
        """Raise :class:`RequestError` naming a meld size that ``rules`` do not allow
        (a set shorter than ``min_set_len`` or longer than the cards of a rank, a run
        shorter than ``min_run_len`` or longer than a suit), or a count of melds out of
        range."""
        # A set holds the rank's natural cards (4 a deck) and at most as many wild
        # cards: jokers, and twos when they are wild.
        naturals = 4 * rules.decks
        wild = min(naturals, rules.jokers + (naturals if rules.twos_wild else 0))
        for name, sizes, low, high in (
            ("sets", self.sets, rules.min_set_len, naturals + wild),
            ("runs", self.runs, rules.min_run_len, MAX_RUN_LEN),
        ):
            for size in sizes:
                if name == "sets" and low > high:
                    # Not "sets hold 5 to 4 cards": say why no set can be laid at all.
                    raise RequestError(
                        _(
                            "contract 'sets' size {size} cannot be met: min_set_len is {low},"
                            " but a set of one rank holds at most {high} cards under these"
                            " rules ({naturals} of the rank with decks={decks}, and {wild})",
                            size=quoted(size),
                            low=low,
                            high=high,
                            naturals=naturals,
                            decks=rules.decks,
                            # "and 1 wild cards" (decks=1, jokers_per_deck=1)
                            wild=_n("{n} wild card", "{n} wild cards", wild),
                        )
                    ).naming("sets")
                if not low <= size <= high:
                    # The range says the meld in words: "sets hold" left the field's
                    # name, English, in the Japanese sentence.
                    held = (
                        _("a set holds {low} to {high} cards under these rules", low=low, high=high)
                        if name == "sets"
                        else _(
                            "a run holds {low} to {high} cards under these rules",
                            low=low,
                            high=high,
                        )
                    )
                    raise RequestError(
                        _(
                            "contract {name!r} size {size} is out of range: {held}",
                            name=name,
                            size=quoted(size),
                            held=held,
                        )
                    ).naming(name)
        if not 1 <= self.melds <= MAX_MELDS:
            raise RequestError(
                _(
                    "a contract has 1 to {most} melds, 'sets' and 'runs' give {count}",
                    most=MAX_MELDS,
                    count=self.melds,
                )
            ).naming("sets", "runs")

    @property
    def melds(self) -> int:
        return len(self.sets) + len(self.runs)

    @property
    def cards(self) -> int:
        """Fewest cards that meet the contract."""
        return sum(self.sets) + sum(self.runs)

    def to_dict(self) -> dict[str, list[int]]:
        return {"sets": list(self.sets), "runs": list(self.runs)}

    def __str__(self) -> str:
        return contract_text(self.sets, self.runs)


def contract_text(sets: Sequence[int], runs: Sequence[int]) -> str:
    """A contract in words, in the active language: ``set of 3 + run of 4``."""
    parts = [_("set of {n}", n=n) for n in sets] + [_("run of {n}", n=n) for n in runs]
    return " + ".join(parts)


STANDARD_CONTRACTS: dict[int, Contract] = {
    1: Contract(sets=(3, 3)),
    2: Contract(sets=(3,), runs=(4,)),
    3: Contract(runs=(4, 4)),
    4: Contract(sets=(3, 3, 3)),
    5: Contract(sets=(3,), runs=(7,)),
    6: Contract(sets=(3, 3), runs=(5,)),
    7: Contract(runs=(4, 4, 4)),
    8: Contract(sets=(3,), runs=(10,)),
    9: Contract(sets=(3, 3, 3), runs=(5,)),
    10: Contract(runs=(5, 5, 5)),
}
"""Contract of each hand in the standard game."""


def buys_allowed(hand_number: int | None, rules: Rules) -> int:
    """Buys per player in a hand: ``rules.buys`` in hands 1-8, ``buys_last_two_hands``
    in 9-10 (a custom contract without a hand number uses ``rules.buys``)."""
    if hand_number is not None and hand_number >= HANDS - 1:
        return rules.buys_last_two_hands
    return rules.buys


def most_cards(held: int, buys: int, rules: Rules) -> int:
    """The most cards a hand not yet down can ever hold after a draw: ``held`` after
    this turn's draw and, for each of ``buys`` buys still to make, the upcard and the
    penalty cards (a turn's draw and discard leave its size as it is, so only buys
    grow it); fewer than the contract lays, and the contract is out of its reach."""
    return held + buys * (1 + rules.buy_penalty_cards)
