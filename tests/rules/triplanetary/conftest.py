"""Fixtures of the Triplanetary rules tests."""

import pytest

from shipsheet.model import Session


@pytest.fixture
def session():
    """An empty Triplanetary session (turn 1, Movement), fixed seed."""
    return Session("triplanetary", seed=7)
