"""``readsim.app.bundle``: the one-folder bundle that runs without Python (docs/bundle.md).

Module map:

- :mod:`.build`: ``python -m readsim.app.bundle.build OUT`` stages the source tree as the
  installed ``readsim`` package, writes the two launchers and runs PyInstaller on
  ``readsim.spec`` (this folder), leaving ``OUT/readsim/`` with ``readsim`` and
  ``readsim-eval`` over one ``_internal/``.
- :mod:`.launcher`: the launchers' one function: a frozen program started as
  ``PROGRAM -m MODULE ARGS`` (readsim's own child processes, ``sys.executable -m ...``) runs
  that module, any other start runs the program's ``main``.
"""
