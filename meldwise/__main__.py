import sys

from meldwise.cli import main

# Guarded: the service's worker processes are spawned and re-import the main module.
if __name__ == "__main__":
    sys.exit(main())
