"""What several test modules share: worked cases, constants and plain helper functions (fixtures
are in the conftest.py of the folder whose tests use them). No test module imports another test
module; they import from here (``from helpers.gui import Probe``: tests/ is on sys.path, as the
rootdir of tests/conftest.py)."""
