"""The security model: the bearer token off loopback, the repository allowlist, path checks
on cited files, the size caps, and no CORS unless configured."""

from __future__ import annotations

import hmac
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from codeagent.errors import ConfigError
from codeagent.server import auth
from server_helpers import FILES, client, remote, repo_status, wait_until_updated


def test_loopback_needs_no_token(served_repo: Any) -> None:
    served, _root = served_repo
    assert client.get(f"{served.url}/v1/repos").status_code == 200


@pytest.mark.parametrize("token", [None, "wrong-token-wrong-token", "Basic abc"])
def test_remote_client_without_the_right_token_is_refused(served_repo: Any, token: Any) -> None:
    served, _root = served_repo
    for method, path in (("GET", "/v1/repos"), ("GET", "/v1/health"), ("POST", "/v1/ask")):
        response = client.request(
            method, f"{served.url}{path}", headers=remote(token), json={"question": "x"}
        )
        assert response.status_code == 401, path
        assert response.headers["www-authenticate"] == "Bearer"


def test_remote_client_with_the_token_is_served(served_repo: Any) -> None:
    served, _root = served_repo
    response = client.get(f"{served.url}/v1/repos", headers=remote(served.token))
    assert response.status_code == 200
    assert response.json()["repos"][0]["id"] == "geo-repo"


def test_the_web_page_itself_is_public(served_repo: Any) -> None:
    served, _root = served_repo
    response = client.get(f"{served.url}/", headers=remote())
    assert response.status_code == 200
    assert "<html" in response.text.lower()


def test_token_file_is_generated_private(served_repo: Any) -> None:
    served, _root = served_repo
    mode = stat.S_IMODE((served.home / "server.token").stat().st_mode)
    assert mode == 0o600
    assert len(served.token) >= 32


def test_token_comparison_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    assert auth.token_matches("Bearer s3cret-s3cret", "s3cret-s3cret")
    assert not auth.token_matches("Bearer nope", "s3cret-s3cret")
    assert calls == [(b"s3cret-s3cret", b"s3cret-s3cret"), (b"nope", b"s3cret-s3cret")]


def test_token_file_readable_by_others_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("x" * 40)
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError, match="chmod 600"):
        auth.load_or_create_token(path)


@pytest.mark.parametrize(
    "repo",
    [
        "/etc",
        "..",
        "../geo-repo",
        "geo-repo/..",
        "geo-repo/../../etc",
        "https://github.com/psf/requests",
        "file:///etc",
        "git@github.com:psf/requests.git",
        "~",
        ["geo-repo"],
        "other-repo",
    ],
)
def test_only_served_repositories_by_id(served_repo: Any, repo: Any) -> None:
    served, _root = served_repo
    for path, body in (("/v1/ask", {"question": "hi"}), ("/v1/index", {})):
        response = client.post(f"{served.url}{path}", json={"repo": repo, **body})
        # 422: not even a string (a list); 400: no id of a served repository; 404: no such id
        assert response.status_code in (400, 404, 422), (path, repo)
    cache = served.home / "cache"
    indexed = sorted(p.name for p in cache.iterdir()) if cache.is_dir() else []
    assert len(indexed) <= 1  # at most geo-repo's own index: nothing else was ever indexed


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("../geo-repo/README.md", 400),
        ("/etc/passwd", 400),
        ("geo/../README.md", 400),
        ("https://example.com/x", 400),
        ("missing.py", 404),
        ("geo", 404),
        (".git/config", 404),
        (".git/HEAD", 404),
        ("ignored.env", 404),
    ],
)
def test_file_endpoint_refuses_paths_outside(served_repo: Any, path: str, status: int) -> None:
    served, root = served_repo
    (root / ".gitignore").write_text("*.env\n")
    (root / "ignored.env").write_text("SECRET=1\n")
    response = client.get(f"{served.url}/v1/file", params={"repo": "geo-repo", "path": path})
    assert response.status_code == status, response.text


def test_a_file_ignored_after_indexing_is_not_shown(git_repo: Any, serve_process: Any) -> None:
    """The index still holds a file that a ``.gitignore`` written since hides (no watching,
    no question: nothing updates it); the rules on disk decide at the request."""
    root = git_repo(FILES, name="geo")
    (root / "notes.env").write_text("SECRET=1\n")  # untracked, not ignored: indexed
    served = serve_process("--repo", str(root), "--no-watch")
    before = wait_until_updated(served)
    params = {"path": "notes.env"}
    shown = client.get(f"{served.url}/v1/file", params=params)
    assert shown.status_code == 200, shown.text
    assert shown.json()["lines"] == ["SECRET=1"]
    (root / ".gitignore").write_text("*.env\n")
    hidden = client.get(f"{served.url}/v1/file", params=params)
    assert hidden.status_code == 404, hidden.text
    assert "SECRET" not in hidden.text
    assert repo_status(served)["state"] == before["state"]  # nothing updated the index


def test_file_endpoint_refuses_symlinks(served_repo: Any, tmp_path: Path) -> None:
    served, root = served_repo
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret\n")
    link = root / "link.txt"
    link.symlink_to(secret)
    try:
        response = client.get(
            f"{served.url}/v1/file", params={"repo": "geo-repo", "path": "link.txt"}
        )
    finally:
        link.unlink()
    assert response.status_code == 403
    assert "top secret" not in response.text


def test_body_and_question_are_capped(served_repo: Any) -> None:
    served, _root = served_repo
    big = client.post(f"{served.url}/v1/ask", json={"question": "x" * 100_000})
    assert big.status_code == 413
    long_question = client.post(f"{served.url}/v1/ask", json={"question": "y" * 5000})
    assert long_question.status_code == 413
    assert "4000" in long_question.json()["error"]


def test_no_cors_headers_by_default(served_repo: Any) -> None:
    served, _root = served_repo
    headers = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    preflight = client.options(f"{served.url}/v1/ask", headers=headers)
    assert "access-control-allow-origin" not in preflight.headers
    plain = client.get(f"{served.url}/v1/repos", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in plain.headers
