"""Speed benchmarks of the Meldwise solvers."""
