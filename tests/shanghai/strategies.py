"""Hypothesis strategies shared by the Shanghai property tests.

The dealing helpers (the benchmarks' ``deal``, the brute-force tests' hands and
tables) take a ``random.Random``; the tests hand them one drawn from ``RANDOMS``
instead of seeding one from a drawn integer, so each choice the helpers make is a
hypothesis draw and a failing example shrinks (fewer melds, smaller ranks, the
first cards of the deck) instead of jumping to an unrelated seed.
"""

from __future__ import annotations

from hypothesis import strategies as st

RANDOMS = st.randoms(use_true_random=False)
"""A random source hypothesis controls and shrinks."""

HAND_NUMBERS = st.integers(1, 10)
"""The ten hands of a Shanghai game, each with its standard contract."""
