"""Speed benchmarks of the Meldwise solvers: ``python -m benchmarks --help``."""

import sys

from benchmarks.cli import main

sys.exit(main())
