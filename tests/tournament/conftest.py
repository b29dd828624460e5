import pytest

from judge.web import create_app


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    return create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("instance")), "TESTING": True, "SECRET_KEY": "test"})


@pytest.fixture()
def client(app):
    return app.test_client()
