"""An independent check that a Shanghai play-phase answer is legal under its rules.

It reads the wire answer (``advise_shanghai``'s dict) and plays it out on the
request's hand and table from the rules alone, sharing nothing with the library's
meld reader, model or engine: every card laid comes from the hand, every new meld is
a set or run of the rules' sizes that the contract asks for, every swap gives the
card its joker stands for, every lay-off goes on a set's rank or beyond a run's ends,
no meld ends with more wild cards than natural ones, and the turn ends as the rules
allow. It returns what it found wrong, in words (empty: legal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.shanghai.notation import Card, Suit
from solver.shanghai.rules import Rules

JOKER_RANK = 0
ACE = 14
RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14, **{str(n): n for n in range(2, 11)}}


def card_of(text: str) -> Card:
    """A card from its canonical text (a set's place, a rank alone, as ``Card(rank)``)."""
    if text in RANKS:
        return Card(RANKS[text], None)
    return Card.parse(text)


def is_wild(card: Card, rules: Rules) -> bool:
    return card.rank == JOKER_RANK or (rules.twos_wild and card.rank == 2)


@dataclass
class Spot:
    """One card of a meld on the table: the card, and the run place or set rank it
    plays at."""

    card: Card
    place: int


@dataclass
class TableMeld:
    """A meld as the check keeps it: its kind, its suit (a run) or rank (a set), and
    its cards by place (a run: place 1 is the low ace, 14 the high one)."""

    kind: str
    key: int  # a set's rank, or a run's suit index
    spots: list[Spot] = field(default_factory=list)

    def natural(self, spot: Spot) -> bool:
        card = spot.card
        if card.rank == JOKER_RANK:
            return False
        if self.kind == "set":
            return card.rank == self.key
        assert card.suit is not None
        rank = ACE if spot.place == 1 else spot.place
        return card.suit.index == self.key and card.rank == rank

    def wilds_over(self) -> bool:
        naturals = sum(self.natural(s) for s in self.spots)
        return len(self.spots) - naturals > naturals


def place_of(meant: Card, low: bool) -> int:
    """The run place of ``meant``: an ace is 1 when ``low``, else 14."""
    return 1 if meant.rank == ACE and low else meant.rank


def new_meld(kind: str, cards: Sequence[Card], meant: Sequence[Card], rules: Rules) -> list[str]:
    """What is wrong with laying ``cards`` (playing as ``meant``) as a new meld."""
    wrong: list[str] = []
    shown = " ".join(str(c) for c in cards)
    if len(cards) != len(meant) or not cards:
        return [f"meld {shown}: {len(cards)} cards, {len(meant)} meanings"]
    if kind == "set":
        rank = meant[0].rank
        if any(m.rank != rank for m in meant):
            wrong.append(f"set {shown}: plays as more than one rank")
        meld = TableMeld("set", rank, [Spot(c, rank) for c in cards])
    elif kind == "run":
        suit = meant[0].suit
        if suit is None or any(m.suit != suit for m in meant):
            return [f"run {shown}: plays as more than one suit"]
        low = len(meant) > 1 and meant[0].rank == ACE and meant[1].rank == 2
        if low and not rules.ace_low:
            wrong.append(f"run {shown}: a low ace, but ace_low is off")
        places = [place_of(m, low) for m in meant]
        if places != list(range(places[0], places[0] + len(places))):
            wrong.append(f"run {shown}: places {places} are not consecutive low to high")
        if len(places) > 13:
            wrong.append(f"run {shown}: longer than 13")
        meld = TableMeld(
            "run", suit.index, [Spot(c, p) for c, p in zip(cards, places, strict=True)]
        )
    else:
        return [f"meld {shown}: kind {kind!r}"]
    wrong += _cards_fit(meld, meant, shown, rules)
    if meld.wilds_over():
        wrong.append(f"{kind} {shown}: more wild cards than natural ones")
    return wrong


def _cards_fit(meld: TableMeld, meant: Sequence[Card], shown: str, rules: Rules) -> list[str]:
    """Each card is natural at its spot, or wild; and plays as what the answer says."""
    wrong = []
    for spot, m in zip(meld.spots, meant, strict=True):
        if not meld.natural(spot) and not is_wild(spot.card, rules):
            wrong.append(f"{meld.kind} {shown}: {spot.card} cannot play as {m}")
        if meld.natural(spot) and m != spot.card and meld.kind == "run":
            wrong.append(f"run {shown}: {spot.card} said to play as {m}")
    return wrong


@dataclass(frozen=True)
class Request:
    """What the check needs of the request: the hand, the contract (None: down), the
    table melds as (kind, cards, what each plays as), and the rules."""

    hand: tuple[Card, ...]
    contract: tuple[tuple[int, ...], tuple[int, ...]] | None
    table: tuple[tuple[str, tuple[Card, ...], tuple[Card, ...]], ...]
    rules: Rules


def table_melds(request: Request) -> list[TableMeld]:
    melds = []
    for kind, cards, meant in request.table:
        if kind == "set":
            melds.append(TableMeld("set", meant[0].rank, [Spot(c, meant[0].rank) for c in cards]))
        else:
            low = len(meant) > 1 and meant[0].rank == ACE and meant[1].rank == 2
            first = place_of(meant[0], low)
            suit = meant[0].suit
            assert suit is not None
            melds.append(
                TableMeld("run", suit.index, [Spot(c, first + i) for i, c in enumerate(cards)])
            )
    return melds


def problems(request: Request, answer: dict[str, Any], *, ends: bool = True) -> list[str]:
    """Everything illegal in the play phase of ``answer`` (empty: a legal turn);
    ``ends`` false for plays alone (a review's best), whose discard is not given."""
    return played(request, answer, ends=ends)[0]


def table_after(request: Request, answer: dict[str, Any]) -> list[tuple[str, Cards, Cards, int]]:
    """The table after the plays of a legal ``answer``: each meld as (kind, cards, what
    each plays as, first run place; 0 for a set)."""
    melds = []
    for meld in played(request, answer)[1]:
        spots = sorted(meld.spots, key=lambda s: s.place)
        cards = tuple(s.card for s in spots)
        if meld.kind == "set":
            melds.append(("set", cards, tuple(Card(meld.key, None) for _ in spots), 0))
        else:
            suit = Suit.from_index(meld.key)
            meant = tuple(Card(ACE if s.place == 1 else s.place, suit) for s in spots)
            melds.append(("run", cards, meant, spots[0].place))
    return melds


Cards = tuple[Card, ...]


def played(
    request: Request, answer: dict[str, Any], *, ends: bool = True
) -> tuple[list[str], list[TableMeld]]:
    """:func:`problems`, and the table the plays leave."""
    rules = request.rules
    hand = Counter(request.hand)
    table = table_melds(request)
    wrong: list[str] = []
    go_down, lay_offs = answer["go_down"], answer["lay_offs"]
    down = request.contract is None
    if go_down is not None and down:
        wrong.append("a player already down goes down again")
    swaps = (go_down or {}).get("swaps", []) + (lay_offs or {}).get("swaps", [])
    if swaps and not down and go_down is None:
        wrong.append("a player not down swaps without going down")
    for swap in swaps:
        wrong += _swap(swap, table, hand, rules)
    if go_down is not None:
        wrong += _go_down(go_down, request, table, hand)
    if lay_offs is not None:
        if not down and go_down is None:
            wrong.append("a player not down lays off without going down")
        wrong += _lay_offs(lay_offs, table, hand, rules)
    for i, meld in enumerate(table):
        if meld.wilds_over():
            shown = " ".join(str(s.card) for s in meld.spots)
            wrong.append(f"table meld {i} ends with more wild cards than natural ones: {shown}")
    if any(n < 0 for n in hand.values()):
        wrong.append(f"cards laid that the hand did not hold: {-hand}")
    if ends:
        wrong += _turn_end(answer, +hand, request, go_down is not None)
    elif lay_offs is not None:
        left = Counter(card_of(c) for c in lay_offs["left"])
        if left != +hand:
            wrong.append(f"lay_offs.left {lay_offs['left']} is not the hand after the plays")
        if sum(left.values()) == 1 and not request.rules.go_out_by_discard:
            wrong.append("the plays leave one card, which the rules forbid discarding")
    return wrong, table


def _swap(
    swap: dict[str, Any], table: list[TableMeld], hand: Counter[Card], rules: Rules
) -> list[str]:
    index, position, give = swap["meld"], swap["position"], card_of(swap["give"])
    if not 0 <= index < len(table) or not 0 <= position < len(table[index].spots):
        return [f"swap {swap}: no such place on the table"]
    meld = table[index]
    spot = meld.spots[position]
    if spot.card.rank != JOKER_RANK:
        return [f"swap {swap}: {spot.card} is no joker"]
    given = Spot(give, spot.place)
    if give.rank == JOKER_RANK or not meld.natural(given):
        return [f"swap {swap}: {give} is not the card the joker stands for"]
    hand[give] -= 1
    hand[spot.card] += 1
    spot.card = give
    return []


def _go_down(
    go_down: dict[str, Any], request: Request, table: list[TableMeld], hand: Counter[Card]
) -> list[str]:
    rules = request.rules
    assert request.contract is not None
    wrong = []
    sizes: dict[str, list[int]] = {"set": [], "run": []}
    for meld in go_down["melds"]:
        cards = [card_of(c) for c in meld["cards"]]
        meant = [card_of(c) for c in meld["as"]]
        wrong += new_meld(meld["kind"], cards, meant, rules)
        hand.subtract(cards)
        sizes.setdefault(meld["kind"], []).append(len(cards))
        # Later lay-offs on it (named from len(table)) play on it as on a table meld.
        table += table_melds(
            Request((), None, ((meld["kind"], tuple(cards), tuple(meant)),), rules)
        )
    sets, runs = request.contract
    for kind, want, low in (("set", sets, rules.min_set_len), ("run", runs, rules.min_run_len)):
        got = sorted(sizes[kind])
        if len(got) != len(want) or any(g < w for g, w in zip(got, sorted(want), strict=True)):
            wrong.append(f"the {kind}s laid ({got}) do not meet the contract's ({list(want)})")
        if any(g < low for g in got):
            wrong.append(f"a {kind} of fewer than {low} cards")
    if Counter({c: n for c, n in hand.items() if n}) != Counter(
        card_of(c) for c in go_down["left"]
    ):
        wrong.append(f"go_down.left {go_down['left']} is not the hand after the melds")
    return wrong


def _lay_offs(
    lay_offs: dict[str, Any], table: list[TableMeld], hand: Counter[Card], rules: Rules
) -> list[str]:
    wrong = []
    added: dict[int, list[tuple[Card, Card]]] = {}
    for play in lay_offs["plays"]:
        card, meant = card_of(play["card"]), card_of(play["as"])
        if not 0 <= play["meld"] < len(table):
            wrong.append(f"lay-off {play}: no such meld")
            continue
        added.setdefault(play["meld"], []).append((card, meant))
        hand[card] -= 1
    for index, cards in added.items():
        wrong += _lay_on(table[index], index, cards, rules)
    return wrong


def _lay_on(meld: TableMeld, index: int, cards: list[tuple[Card, Card]], rules: Rules) -> list[str]:
    if meld.kind == "set":
        spots = [Spot(card, meld.key) for card, _ in cards]
        for spot in spots:
            if not meld.natural(spot) and not is_wild(spot.card, rules):
                return [f"{spot.card} laid on set {index} of rank {meld.key}"]
        meld.spots += spots
        return []
    places = [s.place for s in meld.spots]
    for card, meant in cards:
        if meant.suit is None or meant.suit.index != meld.key:
            return [f"{card} laid on run {index} as {meant}, another suit"]
        if meant.rank != ACE:
            places.append(meant.rank)
    low, high = min(places), max(places)
    new: list[Spot] = []
    for card, meant in cards:
        place = meant.rank
        if meant.rank == ACE:
            # the ace goes where it touches the run: above a king, else below a two
            place = 1 if rules.ace_low and low == 2 and high != 13 else ACE
        new.append(Spot(card, place))
    spots = meld.spots + new
    got = sorted(s.place for s in spots)
    lowest = 1 if rules.ace_low else 2
    if got != list(range(got[0], got[0] + len(got))) or got[0] < lowest or got[-1] > ACE:
        return [f"lay-offs on run {index} leave places {got}: not one run"]
    if len(got) > 13:
        return [f"run {index} longer than 13"]
    for spot in new:
        if not meld.natural(spot) and not is_wild(spot.card, rules):
            return [f"{spot.card} laid on run {index} at place {spot.place}"]
    meld.spots = sorted(spots, key=lambda s: s.place)
    return []


def _turn_end(
    answer: dict[str, Any], hand: Counter[Card], request: Request, going_down: bool
) -> list[str]:
    rules = request.rules
    wrong = []
    left = Counter(card_of(c) for c in answer["lay_offs"]["left"]) if answer["lay_offs"] else None
    if left is not None and left != hand:
        wrong.append(f"lay_offs.left {answer['lay_offs']['left']} is not the hand after the plays")
    n = sum(hand.values())
    out_allowed = request.contract is None or going_down
    goes_out = out_allowed and (n == 0 or (n == 1 and rules.go_out_by_discard))
    discard = answer["discard"]
    if answer["lay_offs"] is not None and answer["lay_offs"]["can_go_out"] != goes_out:
        wrong.append(f"can_go_out {answer['lay_offs']['can_go_out']} with {n} cards left")
    if discard is None:
        # One card that cannot go out has no legal end (the answer says so in a note).
        if not goes_out and n >= 2:
            wrong.append("no discard, and the player does not go out")
        return wrong
    if n == 1 and not goes_out:
        wrong.append("the turn ends discarding the last card, which the rules forbid")
    if n == 0:
        wrong.append("a discard with no card left")
    elif hand[card_of(discard["card"])] <= 0:
        wrong.append(f"the discard {discard['card']} is not in hand after the plays")
    end = answer.get("end_of_turn")
    if end is not None:
        kept = hand - Counter([card_of(discard["card"])])
        if Counter(card_of(c) for c in end["kept"]) != kept:
            wrong.append(f"end_of_turn.kept {end['kept']} is not the hand less the discard")
        if end["points"] != sum(rules.points(c) * k for c, k in kept.items()):
            wrong.append(f"end_of_turn.points {end['points']} is not what the kept cards cost")
    return wrong
