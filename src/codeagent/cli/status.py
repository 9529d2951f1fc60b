"""`codeagent status`: the server running for this CODEAGENT_HOME, if any, and what it serves."""

from __future__ import annotations

import click


@click.command("status")
def command() -> None:
    """Show the running server and the repositories it serves.

    The server recorded in CODEAGENT_HOME: started by `codeagent serve`, or left running by
    `codeagent ask` (it stops after its idle time). `codeagent stop` stops it."""
    from codeagent.cli.serve import START_TIMEOUT
    from codeagent.cli.warm import duration
    from codeagent.display import safe_name
    from codeagent.paths import default_home
    from codeagent.server.address import read_address, starting_pid
    from codeagent.server.client import NoServer, connect

    home = default_home()
    address = read_address(home)
    if address is None:
        starting = starting_pid(home, START_TIMEOUT)
        click.echo(f"a server is starting (pid {starting})" if starting else "no server is running")
        return
    idle = address.exit_after_idle
    stops = f", stops after {duration(idle)} without a question" if idle else ""
    click.echo(f"server pid {address.pid} on {address.url}{stops}")
    client = connect(home)
    try:
        repos = client.get("/v1/repos").get("repos", [])
    except NoServer as exc:
        click.echo(f"  (it does not answer: {exc})")
        return
    finally:
        client.close()
    for repo in repos:
        root = safe_name(str(repo.get("root", "")))
        click.echo(f"  {safe_name(str(repo.get('id')))}  {root}  index {repo.get('index')}")
