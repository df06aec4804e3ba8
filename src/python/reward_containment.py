"""Keeps what a reward preview starts from outliving it: orphans re-parent to the harness, which kills them at the end."""

import ctypes
import os
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans():
    """On Linux, processes the user's code starts and abandons (a new session, a double fork) re-parent here, so they can be found."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def kill_descendants():
    """Kills every process below this one (found in /proc), so nothing the reward started outlives the preview."""
    if not os.path.isdir("/proc"):
        return
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    queue = [os.getpid()]
    while queue:
        for pid in children.get(queue.pop(), []):
            queue.append(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
