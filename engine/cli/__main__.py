"""``python -m readsim.cli``: ``readsim-eval``."""

if __name__ == "__main__":
    import sys

    from . import main

    sys.exit(main())
