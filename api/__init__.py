"""The Meldwise HTTP service (thin routes over :mod:`solver`)."""
