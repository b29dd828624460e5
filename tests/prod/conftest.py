import pytest

from judge.web import create_app


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path_factory.mktemp("instance"))})
    return app


@pytest.fixture()
def client(app):
    return app.test_client()
