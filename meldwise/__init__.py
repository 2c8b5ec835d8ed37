"""The ``meldwise`` command: the solver's subcommands plus the service's."""
