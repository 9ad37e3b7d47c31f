"""The hostile-input suite's table format (reference section 10): one row per input a user might hand over.

Every ``tests/hostile/test_*.py`` module holds a module-level ``CASES`` list of :class:`Case` rows
and a test parametrized over it (``@pytest.mark.parametrize("case", CASES, ids=Case.name)``). A
row says, in words a reader can check, what the input is and what readsim must do with it:

- ``SAME``: the same numbers as the clean input (a BOM, CRLF, ...);
- ``WARNING``: the work goes on, with a warning naming the file (and line where there is one);
- ``ERROR``: the work stops with ``file:line: reason`` (``file: reason`` for a whole-file problem),
  exit 1 from the CLI, a message box in the window, never a traceback;
- ``USAGE``: a bad command line or parameter, exit 2 naming the parameter.

To add a case, add a row; big inputs are generated in the test, never committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SAME = "same numbers"
WARNING = "warning"
ERROR = "error naming file and line"
USAGE = "usage error"
OUTCOMES = (SAME, WARNING, ERROR, USAGE)


@dataclass(frozen=True)
class Case:
    """One hostile input: ``id`` (short, unique in its module), ``input`` (what the file or the
    command line holds), ``outcome`` (one of :data:`OUTCOMES`), ``expect`` (a substring of the
    message, or the numbers, the test checks) and ``data`` (whatever the module's test needs)."""

    id: str
    input: str
    outcome: str
    expect: Any = None
    data: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"{self.id}: outcome must be one of {OUTCOMES}")

    def name(self) -> str:
        return self.id
