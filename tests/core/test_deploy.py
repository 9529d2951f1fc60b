"""The deployment files stay in step with the code: every option the compose file gives
`codeagent serve` is one the command has, every setting it puts in the environment is a
setting, the extras the Dockerfile installs exist, and every file either copies or mounts is
in the repository. (No container runtime runs here: these files are checked, not started.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

from codeagent.cli.serve import serve_command
from codeagent.config import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))


def serve_options() -> set[str]:
    return {opt for param in serve_command.params for opt in param.opts + param.secondary_opts}


def test_the_compose_files_serve_options_are_the_commands() -> None:
    command = compose()["services"]["codeagent"]["command"]
    assert command[0] == "serve"
    given = {arg for arg in command[1:] if arg.startswith("--")}
    assert given, "the compose file gives serve no option"
    assert given <= serve_options(), sorted(given - serve_options())


def test_the_dockerfiles_default_command_is_valid() -> None:
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    (cmd,) = re.findall(r"^CMD (\[.*\])$", text, re.MULTILINE)
    args = yaml.safe_load(cmd)
    assert args[0] == "serve"
    assert {a for a in args if a.startswith("--")} <= serve_options()


def test_the_environment_names_settings() -> None:
    fields = set(Settings.model_fields)
    for service in ("codeagent",):
        env = compose()["services"][service]["environment"]
        names = {k.removeprefix("CODEAGENT_").lower() for k in env if k.startswith("CODEAGENT_")}
        assert names, "no CODEAGENT_ setting in the environment"
        assert names <= fields, sorted(names - fields)
    assert compose()["services"]["codeagent"]["environment"]["CODEAGENT_DENSE"].startswith(
        "milvus:http://milvus:"
    )  # the service name the Milvus client reaches


def test_the_dockerfiles_extras_and_files_exist() -> None:
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (extras,) = re.findall(r"'\.\[([a-z,]+)\]'", text)
    assert set(extras.split(",")) <= set(project["project"]["optional-dependencies"])
    for source in re.findall(r"^COPY (.+) \S+$", text, re.MULTILINE):
        for name in source.split():
            assert (ROOT / name).exists(), name
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    pins = set(re.findall(r"torch==([0-9.]+)", makefile))
    assert len(pins) == 1
    assert set(re.findall(r"torch==([0-9.]+)", text)) == pins  # the image's CPU torch = make's


def test_the_mounted_files_exist() -> None:
    for service in compose()["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.endswith((".yaml", ".yml")):
                assert (DEPLOY / source).is_file(), source
