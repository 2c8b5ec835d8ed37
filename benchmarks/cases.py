"""The benchmark positions: named buckets, each dealt reproducibly from a seed.

* ``t<table>-r<rack>``: random positions with about ``table`` tiles on the table
  and ``rack`` on the rack (fewer when the table leaves fewer: t80-r30), the two
  jokers spread at random over table, rack and the pool (see
  :func:`solver.rummikub.deal.random_position`).
* ``hard-*``: positions that stress the model: racks of 30-40 tiles, both jokers
  on the table, both on the rack, and jokers at the end of long runs and in groups
  of four (the shapes where a joker could stand in several places).
* ``mid-*``: mid-game positions of the kind where a calm answer matters most and is
  hardest to prove: a table of 40-60 or 60-80 tiles, a rack of 6-30, a joker on the
  table and one on the rack.
* ``selfplay``: positions met in games where every player plays the solver's own
  best move (see :mod:`benchmarks.selfplay`), the realistic ones.

Every bucket has its own random stream derived from the seed and its name, so the
positions of a bucket do not depend on which other buckets run, and the first
``n`` positions are the same whatever the count asked for.
"""

from __future__ import annotations

import fnmatch
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial
from pathlib import Path

from benchmarks.selfplay import KEEP_EVERY, PLAYERS, play_positions
from solver.commands import not_json, unreadable, write_file
from solver.errors import MeldwiseError
from solver.i18n import _
from solver.rummikub import STANDARD, Objective, Position, Rules, Tile
from solver.rummikub.deal import full_set, random_position, random_set
from solver.rummikub.notation import JOKER, format_tiles

TABLE_SIZES = (0, 10, 20, 40, 60, 80)
RACK_SIZES = (6, 14, 20, 30)


class Mode(Enum):
    """What is asked of the solver on a position."""

    TILES = "tiles"
    """After opening: most tiles played."""
    POINTS = "points"
    """After opening: most penalty points played."""
    OPENING = "opening"
    """Not yet opened: most tiles in new sets worth the opening threshold."""

    @property
    def objective(self) -> Objective:
        return Objective.POINTS if self is Mode.POINTS else Objective.TILES

    def position(self, position: Position) -> Position:
        """``position`` as this mode asks it (opened or not)."""
        return Position(position.rack, position.table, opened=self is not Mode.OPENING)


@dataclass(frozen=True, slots=True)
class Case:
    """One benchmark position, known by its bucket and its index there."""

    bucket: str
    index: int
    position: Position

    @property
    def label(self) -> str:
        return f"{self.bucket}#{self.index}"

    def notation(self) -> dict[str, str]:
        """Rack and table in the notation of ``meldwise solve --rack/--table``."""
        return {
            "rack": format_tiles(self.position.rack),
            "table": " | ".join(format_tiles(tiles) for tiles in self.position.table),
        }


Deal = Callable[[random.Random, int], list[Position]]
"""Deal ``count`` positions from a random stream."""


@dataclass(frozen=True, slots=True)
class Bucket:
    name: str
    family: str
    """random, hard, mid or selfplay: the report sums buckets up by family too."""
    about: str
    deal: Deal
    scale: int = 1
    """Positions dealt per ``--per-bucket`` unit (self-play gets more: it is the realistic one)."""

    def cases(self, seed: int, per_bucket: int) -> list[Case]:
        rng = random.Random(f"{seed}:{self.name}")
        return [
            Case(self.name, i, position)
            for i, position in enumerate(self.deal(rng, per_bucket * self.scale))
        ]


def each(deal_one: Callable[[random.Random], Position]) -> Deal:
    """A :data:`Deal` that deals positions one by one."""
    return lambda rng, count: [deal_one(rng) for _each in range(count)]


def spread_jokers(rng: random.Random, table: int, rack: int) -> Position:
    """A random position whose jokers are spread at random over table, rack and pool."""
    table_jokers = rng.randint(0, STANDARD.jokers)
    rack_jokers = rng.randint(0, STANDARD.jokers - table_jokers)
    return random_position(
        rng, STANDARD, table, rack, table_jokers=table_jokers, rack_jokers=rack_jokers
    )


def grid_buckets() -> list[Bucket]:
    return [
        Bucket(
            f"t{table}-r{rack}",
            "random",
            f"random: table of about {table} tiles, rack of {rack}",
            each(partial(spread_jokers, table=table, rack=rack)),
        )
        for table in TABLE_SIZES
        for rack in RACK_SIZES
    ]


def big_rack(rng: random.Random) -> Position:
    return spread_jokers(rng, rng.randint(10, 50), rng.randint(30, 40))


def jokers_on_table(rng: random.Random) -> Position:
    return random_position(
        rng, STANDARD, rng.randint(20, 60), rng.randint(6, 20), table_jokers=STANDARD.jokers
    )


def jokers_on_rack(rng: random.Random) -> Position:
    return random_position(
        rng, STANDARD, rng.randint(20, 60), rng.randint(6, 20), rack_jokers=STANDARD.jokers
    )


def jokers_at_edges(rng: random.Random, rules: Rules = STANDARD) -> Position:
    """A table where each joker ends a run longer than the minimum (as its first or
    last tile) or fills a group of four, among random sets (4-40 tiles in all); a
    random rack of 6-20 tiles."""
    pool = full_set(rules)
    pool[JOKER] = 0
    table: list[list[Tile]] = []
    for _joker in range(rules.jokers):
        if rng.random() < 0.5:
            length = rng.randint(rules.min_set_len + 1, rules.min_set_len + 3)
            colour = rng.choice(rules.colour_list)
            start = rng.randint(1, rules.numbers - length + 1)
            tiles = [Tile.natural(colour, n) for n in range(start, start + length)]
            spot = rng.choice((0, length - 1))
        else:
            number = rng.randint(1, rules.numbers)
            tiles = [Tile.natural(c, number) for c in rules.colour_list[:4]]
            spot = rng.randrange(4)
        if any(pool[t] == 0 for t in tiles):
            continue  # both copies already on the table: this joker goes to the pool
        pool.subtract(tiles)
        tiles[spot] = JOKER
        table.append(tiles)
    target = rng.randint(4, 40)  # small tables too, where a joker cannot move elsewhere
    for _try in range(500):
        if sum(map(len, table)) >= target:
            break
        drawn = random_set(rng, pool, rules)
        if drawn is not None:
            table.append(drawn)
    rest = sorted(pool.elements())
    rack = rng.sample(rest, min(rng.randint(6, 20), len(rest)))
    rng.shuffle(table)
    return Position(tuple(sorted(rack)), tuple(tuple(s) for s in table))


def hard_buckets() -> list[Bucket]:
    return [
        Bucket("hard-rack30-40", "hard", "rack of 30-40 tiles, table of 10-50", each(big_rack)),
        Bucket(
            "hard-jokers-table", "hard", "both jokers on a table of 20-60", each(jokers_on_table)
        ),
        Bucket("hard-jokers-rack", "hard", "both jokers on a rack of 6-20", each(jokers_on_rack)),
        Bucket(
            "hard-jokers-edges",
            "hard",
            "jokers ending long runs and in groups of four",
            each(jokers_at_edges),
        ),
    ]


MID_GAME_TABLES = ((40, 60), (60, 80))


def mid_game(rng: random.Random, low: int, high: int) -> Position:
    return random_position(
        rng, STANDARD, rng.randint(low, high), rng.randint(6, 30), table_jokers=1, rack_jokers=1
    )


def mid_game_buckets() -> list[Bucket]:
    return [
        Bucket(
            f"mid-t{low}-{high}",
            "mid",
            f"table of {low}-{high} tiles, rack of 6-30, a joker on each",
            each(partial(mid_game, low=low, high=high)),
        )
        for low, high in MID_GAME_TABLES
    ]


SELFPLAY = Bucket(
    "selfplay",
    "selfplay",
    f"self-play of {PLAYERS} players, a position kept every {KEEP_EVERY} turns",
    play_positions,
    scale=3,
)


def all_buckets() -> list[Bucket]:
    """Every bucket, in report order."""
    return [*grid_buckets(), *hard_buckets(), *mid_game_buckets(), SELFPLAY]


def select(buckets: Sequence[Bucket], patterns: Sequence[str]) -> list[Bucket]:
    """Buckets whose name matches one of the shell patterns (``t80-*``, ``hard-*``);
    raises ValueError naming a pattern that matches none."""
    if not patterns:
        return list(buckets)
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(b.name, pattern) for b in buckets):
            names = ", ".join(b.name for b in buckets)
            raise MeldwiseError(
                _(
                    "bucket pattern {pattern!r} matches no bucket; buckets: {buckets}",
                    pattern=pattern,
                    buckets=names,
                )
            )
    return [b for b in buckets if any(fnmatch.fnmatchcase(b.name, p) for p in patterns)]


def save_cases(path: Path, seed: int, cases: Sequence[Case]) -> None:
    """Write the positions to ``path`` so later runs can time exactly these."""
    by_bucket: dict[str, list[dict[str, object]]] = {}
    for case in cases:
        entry: dict[str, object] = {**case.notation(), "opened": case.position.opened}
        by_bucket.setdefault(case.bucket, []).append(entry)
    text = json.dumps({"seed": seed, "buckets": by_bucket}, indent=1) + "\n"
    write_file("--positions", path, text)


def load_cases(path: Path, seed: int, buckets: Sequence[Bucket], per_bucket: int) -> list[Case]:
    """The positions saved in ``path``: the first ``per_bucket`` (times the bucket's
    scale) of each bucket. Raises ValueError when the file is of another seed or
    lacks positions."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(saved, dict) or "seed" not in saved or "buckets" not in saved:
            # Not "holds the positions of seed None": it holds no positions at all.
            raise MeldwiseError(_("not a positions file (no 'seed' and 'buckets')"))
        if saved.get("seed") != seed:
            raise ValueError(
                f"{path} holds the positions of seed {saved.get('seed')!r}, not {seed}"
            )
        cases = []
        for bucket in buckets:
            wanted = per_bucket * bucket.scale
            entries = saved["buckets"].get(bucket.name, [])
            if len(entries) < wanted:
                raise ValueError(
                    f"{path} has {len(entries)} positions of bucket {bucket.name!r}, "
                    f"{wanted} wanted; delete the file to deal them afresh"
                )
            for i, entry in enumerate(entries[:wanted]):
                lacks = [key for key in ("rack", "table", "opened") if key not in entry]
                if lacks:  # a KeyError's repr, KeyError('rack'), said it
                    raise MeldwiseError(
                        _(
                            "position {index} of bucket {bucket!r} lacks {field!r}",
                            index=i,
                            bucket=bucket.name,
                            field=lacks[0],
                        )
                    )
                position = Position.parse(entry["rack"], entry["table"], entry["opened"])
                cases.append(Case(bucket.name, i, position))
    except OSError as error:  # said in words, not as IsADirectoryError(21, ...)
        raise unreadable(path, error) from None
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: not a positions file ({error!r})") from None
    except UnicodeDecodeError:  # a ValueError: said without the file's name
        raise ValueError(f"{path}: not a positions file (not UTF-8 text)") from None
    except MeldwiseError as error:  # a tile, a set or a field the solver refuses
        raise ValueError(f"{path}: {error}") from None
    except (json.JSONDecodeError, RecursionError) as error:  # said as every command says it
        raise not_json(path, error) from None
    return cases
