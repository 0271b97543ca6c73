"""The store tests' fixtures: an in-memory database and Roppyakken sessions in it."""

from __future__ import annotations

import pytest

from referee import store


@pytest.fixture
def db():
    d = store.open_db(None)
    yield d
    d.close()


@pytest.fixture
def make_session(db):
    """``make_session(name="T")``: a Roppyakken session of players A and B (A deals first), saved in ``db``."""

    def make(name: str = "T") -> store.Session:
        return store.create_session(db, name=name, ruleset="roppyakken", family="roppyakken", options={},
                                    players=["A", "B"], dealer="A")

    return make


@pytest.fixture
def sess(make_session):
    return make_session()
