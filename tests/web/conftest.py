import pytest

from judge.corpus import load_corpus
from judge.web import create_app


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    app = create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("instance")), "TESTING": True, "SECRET_KEY": "test"})
    return app


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()


@pytest.fixture(scope="session")
def table():
    from judge.cards.table import load_table

    return load_table()
