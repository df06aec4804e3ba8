"""MTRL Workbench containment: `python -S contained_run.py SCRIPT` runs SCRIPT (which imports the user's code) and outlives it.

SCRIPT runs in a session of its own with this process's stdin, stdout and stderr. On Linux this process is a child
subreaper, so whatever the user's code starts and abandons (a double fork, a new session, a daemon with a port)
re-parents here instead of to init. When SCRIPT exits, or this process gets SIGTERM, SIGINT or SIGHUP, or the process
that started it dies, every descendant is killed and reaped before this process exits: nothing outlives the run.
"""

import ctypes
import os
import resource
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
# A process stuck in the kernel (a dead network mount) cannot be reaped; the run still ends after this long.
REAP_SECONDS = 5


class Stopped(Exception):
    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# A dying caller signals once per thread it had (the kernel passes the child to each in turn): only the first stop signal
# may interrupt the run, so no later one can cut the clean-up short. One that comes before the run starts is kept.
first_stop = None
interruptible = False


def on_stop(signum, _frame):
    global first_stop, interruptible
    first_stop = first_stop or signum
    if interruptible:
        interruptible = False
        raise Stopped(signum)


def prctl(option, value):
    """True when the Linux call succeeded (it needs no privileges); False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def descendants():
    """Every process below this one, found in /proc (empty where there is no /proc)."""
    children = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as stat:
                # The command name is in parentheses and may hold spaces or ')': the fields after the last ')' are fixed.
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    found, queue = [], [os.getpid()]
    while queue:
        for pid in children.get(queue.pop(), []):
            found.append(pid)
            queue.append(pid)
    return found


def kill(pid, group=False):
    try:
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except OSError:
        pass


def kill_all(script_pid):
    """Kills and reaps every descendant. As subreaper, no child left means no descendant left, wherever it went."""
    if script_pid is not None:
        # Where there is no subreaper (macOS), the script's session group is what can still be reached.
        kill(script_pid, group=True)
    deadline = time.monotonic() + REAP_SECONDS
    while time.monotonic() < deadline:
        for pid in descendants():
            kill(pid)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        time.sleep(0.01)


# The script's process once started: what the clean-up kills first, even when a stop signal came during the wait.
script = None


def run(command):
    """Starts the script and waits for its exit status; raises Stopped for the first stop signal, whenever it came."""
    global interruptible, script
    interruptible = True
    if first_stop or os.getppid() == 1:
        interruptible = False
        raise Stopped(first_stop or signal.SIGTERM)
    script = subprocess.Popen(command, start_new_session=True)
    status = script.wait()
    interruptible = False
    return status


def main():
    global interruptible
    for signum in STOP_SIGNALS:
        signal.signal(signum, on_stop)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    # The editor or the CLI may die without stopping the run: then this process gets SIGTERM and cleans up.
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    try:
        status = run([sys.executable, *sys.argv[1:]])
    except Stopped as stop:
        status = -stop.signum
    finally:
        interruptible = False
        kill_all(script.pid if script else None)
    if status < 0:
        # Killed by a signal: say so the same way, so the caller reads "killed by SIGKILL" and not an exit code.
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status)


if __name__ == "__main__":
    main()
