"""`codeagent doctor`: which backends answer, which models are present, what the defaults pick.

A report, not a gate: missing optional backends (Ollama, llama.cpp, the local embedder) are
reported and the exit status stays 0. It is 1 when the install itself is broken (a required
package missing) and 2 when ``--llm`` / ``--embed`` is not a valid value.
"""

from __future__ import annotations

import importlib.util
import os
import platform
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from codeagent.cli.common import console, embed_option, llm_option, print_json

REQUIRED = (
    "langgraph",
    "langchain_core",
    "langchain_ollama",
    "numpy",
    "bm25s",
    "Stemmer",
    "diskcache",
    "pydantic",
    "rich",
    "filelock",
    "pathspec",
)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _dist_version(name: str) -> str | None:
    import importlib.metadata  # not at start-up: it costs every command ~0.1 s

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def tree_size(path: Path) -> int:
    """Bytes of the files under ``path`` (those that vanish while it is walked left out)."""
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += (Path(folder) / name).stat().st_size
            except OSError:
                continue
    return total


def _dense_requires(settings: Any) -> tuple[str, ...]:
    """The modules the dense index backend the settings name imports (none when unknown: the
    backend's own error says so when an index is built)."""
    from codeagent.errors import ConfigError
    from codeagent.store.dense import backend_class

    try:
        return tuple(getattr(backend_class(settings.dense), "requires", ()))
    except ConfigError:
        return ()


def collect(settings: Any) -> dict[str, Any]:
    """Everything the report shows, as plain JSON-able data."""
    from codeagent import __version__
    from codeagent.embed.embedders import LOCAL_PACKAGES, local_available, plan_embedder
    from codeagent.llm import plan_chat_model
    from codeagent.llm.status import looks_like_embedding_model, probe_ollama

    missing = [name for name in (*REQUIRED, *_dense_requires(settings)) if not _installed(name)]
    local_ok = local_available()
    ollama = probe_ollama(settings.ollama_host, with_version=True)
    # the same decisions `ask` and `index` take, from this one probe
    llm = plan_chat_model(settings.llm, settings, ollama).to_json()
    if llm["ok"] and llm["resolves_to"] == "none" and llm["spec"].strip() != "none":
        llm["reason"] = f"answers without an LLM: {llm['reason']}"
    embed = plan_embedder(settings.embed, settings, ollama).to_json()
    problems = [f"required package missing: {name}" for name in missing]
    problems += [f"--llm {llm['spec']}: {llm['reason']}"] if not llm["ok"] else []
    problems += [f"--embed {embed['spec']}: {embed['reason']}"] if not embed["ok"] else []
    config_file = settings.home / "config.toml"
    return {
        "python": platform.python_version(),
        "codeagent": __version__,
        "home": str(settings.home),
        "config_file": {"path": str(config_file), "exists": config_file.is_file()},
        "cache": {"path": str(settings.cache_dir), "bytes": tree_size(settings.cache_dir)},
        "required_packages": {"ok": not missing, "missing": missing},
        "local_embedder": {
            "installed": local_ok,
            "packages": {name: _installed(name) for name in LOCAL_PACKAGES},
        },
        "ollama": {
            **ollama.to_json(),
            "chat_model": {
                "name": settings.ollama_chat_model,
                "present": ollama.has(settings.ollama_chat_model),
            },
            "embedding_models": [m for m in ollama.models if looks_like_embedding_model(m)],
        },
        "llamacpp": {
            "installed": _installed("llama_cpp"),
            "version": _dist_version("llama-cpp-python"),
        },
        "defaults": {"llm": llm, "embed": embed},
        "problems": problems,
        "broken_install": bool(missing),
        "invalid_config": bool(llm.get("invalid") or embed.get("invalid")),
    }


def _yes(flag: bool) -> str:
    return "[green]yes[/green]" if flag else "[yellow]no[/yellow]"


def render(report: dict[str, Any]) -> None:
    ollama, llamacpp, defaults = report["ollama"], report["llamacpp"], report["defaults"]
    home, cache = escape(report["home"]), escape(report["cache"]["path"])
    lines = [
        f"codeagent {report['codeagent']} on Python {report['python']}",
        f"home            {home} (config file: {_yes(report['config_file']['exists'])})",
        f"index cache     {report['cache']['bytes'] / 1e6:.1f} MB in {cache}",
        f"local embedder  {_yes(report['local_embedder']['installed'])}",
        f"Ollama          {ollama['host']} reachable: {_yes(ollama['reachable'])}"
        + (f" (version {ollama['version']})" if ollama["version"] else ""),
    ]
    if ollama["reachable"]:
        chat = ollama["chat_model"]
        lines.append(f"  models        {', '.join(ollama['models']) or '(none)'}")
        lines.append(f"  chat model    {chat['name']} present: {_yes(chat['present'])}")
        embedders = ", ".join(ollama["embedding_models"]) or "(none)"
        lines.append(f"  embedding     {embedders}")
    version = f" ({llamacpp['version']})" if llamacpp["version"] else ""
    lines.append(f"llama.cpp       installed: {_yes(llamacpp['installed'])}{version}")
    for name in ("llm", "embed"):
        item = defaults[name]
        target = item["resolves_to"] or "[red]unusable[/red]"
        option = f"--{name}"
        reason = escape(item["reason"])
        lines.append(f"{option:<15} {item['spec']} -> {target}  [dim]{reason}[/dim]")
    for problem in report["problems"]:
        lines.append(f"[red]problem[/red]: {escape(problem)}")
    for line in lines:
        console().print(line, soft_wrap=True)


@click.command("doctor")
@llm_option
@embed_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def command(llm: str | None, embed: str | None, as_json: bool) -> None:
    """Report the Python, the cache, and which LLM and embedding backends answer.

    Exits 0 even when optional backends are missing or do not answer (they are listed as
    problems); 1 when a required package is missing, 2 for an invalid --llm / --embed value.
    """
    from codeagent.config import Settings

    settings = Settings.load(llm=llm, embed=embed)
    report = collect(settings)
    if as_json:
        print_json(report)
    else:
        render(report)
    if report["broken_install"]:
        raise click.exceptions.Exit(1)
    if report["invalid_config"]:
        raise click.exceptions.Exit(2)
