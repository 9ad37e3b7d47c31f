"""Each test sees every warning: readsim issues a message once per process (readsim.operations.inputs)."""

import pytest


@pytest.fixture(autouse=True)
def _fresh_warnings():
    import readsim.operations.inputs as inputs

    inputs._SAID.clear()
    yield
