import pytest

from judge.corpus import load_corpus
from judge.search.engines import get_engine
from judge.web import create_app


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()


@pytest.fixture(scope="session")
def instance(tmp_path_factory):
    return tmp_path_factory.mktemp("search-instance")


@pytest.fixture(scope="session")
def engine(instance, corpus):
    """The index is built once per test session, in a temporary instance folder."""
    return get_engine(instance, corpus)


@pytest.fixture(scope="session")
def app(instance, engine):
    return create_app({"INSTANCE_PATH": str(instance), "TESTING": True, "SECRET_KEY": "test"})


@pytest.fixture()
def client(app):
    return app.test_client()
