"""Settings keys are spelt once, in ``app/settings_keys.py`` (with their types and defaults):
no other module of app/ passes a string key to ``value()``/``setValue()``/``remove()``/
``contains()`` or keeps a key of its own (``..._KEY = "..."``)."""

from __future__ import annotations

import ast
from pathlib import Path

from readsim.app import settings_keys as keys

APP = Path(__file__).resolve().parents[2] / "app"
METHODS = {"value", "setValue", "remove", "contains"}


def offences(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in METHODS
                and node.args and isinstance(node.args[0], (ast.Constant, ast.JoinedStr))
                and isinstance(getattr(node.args[0], "value", ""), str)):
            out.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out += [f"line {node.lineno}: {t.id} = {node.value.value!r}" for t in node.targets
                    if isinstance(t, ast.Name) and t.id.endswith("_KEY")]
    return out


def test_the_check_sees_literal_keys():
    src = 's.value("window/state")\ns.setValue(f"a/{x}", 1)\nX_KEY = "a/b"\ns.value(keys.ZOOM.name)\n'
    assert len(offences(ast.parse(src))) == 3


def test_no_string_key_outside_the_schema():
    found = {str(p.relative_to(APP)): offences(ast.parse(p.read_text(encoding="utf-8")))
             for p in APP.rglob("*.py") if p.name != "settings_keys.py"}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_schema_names_each_key_once():
    names = [k.name for k in keys.ALL]
    assert len(names) == len(set(names)) and all(isinstance(k, keys.Key) for k in keys.ALL)
    assert {k for k, v in vars(keys).items() if isinstance(v, keys.Key)} == {n for n, v in vars(keys).items()
                                                                             if v in keys.ALL}


def test_read_gives_the_default_and_the_type(qapp, tmp_path):
    from PySide6.QtCore import QSettings

    st = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert keys.read(st, keys.THEME) == "system" and keys.read(st, keys.COMPARE_PLACED) is False
    keys.write(st, keys.COMPARE_PLACED, True)
    keys.write(st, keys.THEME, "dark")
    assert keys.read(st, keys.COMPARE_PLACED) is True and keys.read(st, keys.THEME) == "dark"
