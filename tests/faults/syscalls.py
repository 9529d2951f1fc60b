"""Watch what a command does to the network and the disk, with strace.

``strace -f`` follows every thread and child process. Network: each ``connect``, ``sendto``,
``sendmsg`` and ``sendmmsg`` that names an internet address which is not loopback is an attempt
to reach another machine, answered or not (a DNS query to the resolver is one). Disk: every
file or folder the command creates (``open`` with ``O_CREAT``, ``mkdir``, the target of a
rename or link), by absolute path (``-y`` prints the file a descriptor, the working folder
included, stands for).
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

NETWORK = "connect,sendto,sendmsg,sendmmsg"
FILES = "open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,symlink,symlinkat"
# Device files, and the POSIX semaphores of multiprocessing (unlinked as soon as made).
DEVICES = re.compile(r"^/dev/(null|tty\w*|pts/\d+|shm/sem\.[\w.-]+)$")

_IPV4 = re.compile(r'sin_addr=inet_addr\("([^"]+)"\)')
_IPV6 = re.compile(r'inet_pton\(AF_INET6, "([^"]+)"')
# The resolver of systemd (nss-resolve) over its socket: a name lookup, so traffic.
_RESOLVER_SOCKET = re.compile(r'sun_path="/run/systemd/resolve/')
_CREATED_FD = re.compile(r"O_CREAT.*= \d+<([^>]+)>$")
_AT_PATH = re.compile(r'(?:AT_FDCWD|\d+)<([^>]+)>, "([^"]+)"')
_PLAIN_PATH = re.compile(r'^\w+\("([^"]+)"')


def strace_prefix(folder: Path) -> list[str]:
    """The command line prefix that traces a command into ``folder`` (a file per process, so
    no call is split between threads); skips the test without strace, except in CI, where
    it fails (`make install-system` installs it)."""
    reason = "strace is not installed (`make install-system`)"
    if shutil.which("strace") is not None:
        probe = subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "true"], check=False)
        if probe.returncode == 0:
            reason = ""
        else:
            reason = "strace cannot trace here (ptrace is not permitted)"
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason}: CI must run this test")
        pytest.skip(reason)
    folder.mkdir(parents=True, exist_ok=True)
    calls = f"trace={NETWORK},{FILES}"
    return ["strace", "-ff", "-qq", "-y", "--seccomp-bpf", "-e", calls, "-o", str(folder / "pid")]


def _calls(folders: Iterable[Path]) -> list[str]:
    """Every traced call, one a line: ``name(arguments) = result``."""
    logs = [log for folder in folders for log in sorted(folder.glob("pid.*"))]
    lines = [line for log in logs for line in log.read_text(errors="replace").splitlines()]
    return [line for line in lines if re.match(r"^\w+\(", line)]


def opened(folders: Iterable[Path], fragment: str) -> bool:
    """Whether a traced command opened a file whose path holds ``fragment`` (a library)."""
    return any(
        call.startswith(("open", "openat")) and " = -1 " not in call and fragment in call
        for call in _calls(folders)
    )


def remote_traffic(folders: Iterable[Path]) -> list[str]:
    """The traced calls that address another machine (or a name resolver)."""
    found = []
    for call in _calls(folders):
        if not call.startswith(("connect(", "sendto(", "sendmsg(", "sendmmsg(")):
            continue
        addresses = _IPV4.findall(call) + _IPV6.findall(call)
        remote = [a for a in addresses if not ipaddress.ip_address(a).is_loopback]
        if remote or _RESOLVER_SOCKET.search(call):
            found.append(call)
    return found


def created_paths(folders: Iterable[Path]) -> set[Path]:
    """Every path the traced commands created (or opened to create), absolute."""
    found: set[Path] = set()
    for call in _calls(folders):
        if " = -1 " in call or call.startswith(("connect", "send")):
            continue
        name = call.split("(", 1)[0]
        if name in ("open", "openat", "creat"):
            match = _CREATED_FD.search(call)
            if match and (name == "creat" or "O_CREAT" in call):
                found.add(Path(match.group(1)))
            continue
        # the last path argument is the one created: mkdir(at), rename(at)'s and link's target
        pairs = _AT_PATH.findall(call)
        if pairs:
            base, path = pairs[-1]
            found.add(Path(base, path))
        elif match := _PLAIN_PATH.match(call):
            paths = re.findall(r'"([^"]+)"', call)
            found.add(Path(paths[-1] if paths else match.group(1)))
    return found


def outside(paths: Iterable[Path], allowed: Sequence[Path]) -> list[str]:
    """The paths under none of the ``allowed`` folders, nor a device file."""
    return sorted(
        str(p)
        for p in paths
        if not DEVICES.match(str(p)) and not any(p.is_relative_to(root) for root in allowed)
    )
