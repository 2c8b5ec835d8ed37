import sys

from meldwise.cli import main

sys.exit(main())
