"""The public functions' argument checks: one rule for every option (``docs/api.md``, "Errors
and warnings").

An option of the wrong type or value (``per``, ``reading``, ``unit``, ``vary``, ``test``,
``alpha``, a flag, a count, topic ids, measure names) raises ``ValueError`` naming the option,
the value given and what is allowed; an input (``qrels``, ``runs``, ``collection``) of a type
readsim cannot read raises ``TypeError`` (:mod:`readsim.operations.inputs`).
"""

from __future__ import annotations

import numbers

import numpy as np

from readsim.core.reading import Mode
from readsim.core.units import UNITS

READINGS = tuple(m.value for m in Mode)


def choice(name: str, value, allowed) -> str:
    """``value`` if it is one of the strings ``allowed``, else ``ValueError`` listing them."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def options(*, per: str | None = None, pers=(), reading: str | None = None, unit: str | None = None) -> None:
    """The options most functions share: ``per`` among ``pers``, ``reading`` (reference
    section 3), ``unit`` (``bytes`` or ``chars``); None: not checked."""
    if per is not None or pers:
        choice("per", per, pers)
    if reading is not None:
        choice("reading", reading, READINGS)
    if unit is not None:
        choice("unit", unit, UNITS)


def flag(name: str, value) -> bool:
    """A yes/no option: ``True`` or ``False`` (numpy's too), else ``ValueError``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def whole(name: str, value, low: int | None = None, high: int | None = None, *, none: bool = False) -> int | None:
    """A whole-number option (an ``int`` or numpy integer, not a bool) from ``low`` to ``high``
    (None: no bound), else ``ValueError``; with ``none``, None is allowed and returned."""
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low}" + (f" to {high:,}" if high is not None else "")
        raise ValueError(f"{name} must be a whole number {span}, not {value}")
    return value


def real(name: str, value) -> float:
    """A number option (``int``, ``float``, numpy's; not a bool, not NaN), else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value:
        raise ValueError(f"{name} must be a number, not {value!r}")
    return float(value)


def one_id(name: str, value) -> str:
    """One topic or article id: a string or a whole number, as a string; else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Integral)):
        raise ValueError(f"{name} must be one id (a string), not {value!r}")
    return str(value)


def topic_ids(name: str, value) -> list[str]:
    """Topic ids: one id (a string or a whole number) or a list of them, as strings in the
    order given; anything else (a float, a dict, None) is a ``ValueError``."""
    one = (str, numbers.Integral)
    if isinstance(value, one) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, (list, tuple)) or type(value).__name__ in ("ndarray", "Series", "Index"):
        ids = list(value)
        bad = [v for v in ids if not isinstance(v, one) or isinstance(v, bool)]
        if not bad:
            return [str(v) for v in ids]
        raise ValueError(f"{name} must be topic ids (strings), not {bad[0]!r}")
    raise ValueError(f"{name} must be a topic id or a list of topic ids, not {type(value).__name__}")
