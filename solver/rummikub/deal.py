"""Reproducible random positions: for tests, benchmarks and demos.

A table is built from valid sets drawn out of the game's tiles; jokers are then
put on the table by standing in for numbered tiles of those sets (which go back
to the pool), and the rack is drawn from what is left.
"""

from __future__ import annotations

import random
from collections import Counter

from solver.rummikub.notation import JOKER, Tile
from solver.rummikub.position import Position
from solver.rummikub.rules import Rules


def full_set(rules: Rules) -> Counter[Tile]:
    """Every tile of the game, counted."""
    tiles: Counter[Tile] = Counter()
    for colour in rules.colour_list:
        for number in range(1, rules.numbers + 1):
            tiles[Tile.natural(colour, number)] = rules.copies
    if rules.jokers:
        tiles[JOKER] = rules.jokers
    return tiles


def random_set(rng: random.Random, pool: Counter[Tile], rules: Rules) -> list[Tile] | None:
    """A random valid run or group of numbered tiles taken from ``pool``, or None."""
    size = rules.min_set_len
    if rng.random() < 0.6 or size > rules.max_group_len:
        length = min(rng.randint(size, size + 3), rules.numbers)
        colour = rng.choice(rules.colour_list)
        start = rng.randint(1, rules.numbers - length + 1)
        tiles = [Tile.natural(colour, n) for n in range(start, start + length)]
    else:
        number = rng.randint(1, rules.numbers)
        colours = rng.sample(rules.colour_list, rng.randint(size, rules.max_group_len))
        tiles = [Tile.natural(c, number) for c in sorted(colours, key=lambda c: c.index)]
    need = Counter(tiles)
    if any(pool[t] < n for t, n in need.items()):
        return None
    pool.subtract(need)
    return tiles


def random_position(
    rng: random.Random,
    rules: Rules,
    table_tiles: int,
    rack_tiles: int,
    *,
    table_jokers: int = 0,
    rack_jokers: int = 0,
    opened: bool = True,
) -> Position:
    """A random legal position with about ``table_tiles`` on the table (at least
    that many when the tiles allow) and exactly ``rack_tiles`` on the rack, of which
    ``rack_jokers`` are jokers; ``table_jokers`` jokers stand in on the table."""
    if table_jokers + rack_jokers > rules.jokers:
        raise ValueError(
            f"the game has {rules.jokers} jokers, asked for {table_jokers + rack_jokers}"
        )
    pool = full_set(rules)
    pool[JOKER] = 0
    table: list[list[Tile]] = []
    attempts = 0
    while sum(map(len, table)) < table_tiles and attempts < 500:
        attempts += 1
        drawn = random_set(rng, pool, rules)
        if drawn is not None:
            table.append(drawn)
    for _ in range(table_jokers):
        candidates = [s for s in table if sum(not t.is_joker for t in s) > 1]
        if not candidates:
            break
        chosen = rng.choice(candidates)
        spots = [i for i, t in enumerate(chosen) if not t.is_joker]
        spot = rng.choice(spots)
        pool[chosen[spot]] += 1
        chosen[spot] = JOKER
    rest = sorted(pool.elements())
    rack = rng.sample(rest, min(rack_tiles - rack_jokers, len(rest))) + [JOKER] * rack_jokers
    return Position(
        rack=tuple(sorted(rack)),
        table=tuple(tuple(s) for s in table),
        opened=opened,
    )
