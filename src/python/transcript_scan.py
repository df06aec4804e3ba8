"""MTRL Workbench rollout scan: runs a user's scanner over normalized transcripts, for any environment.

Reads one JSON request on stdin ({file, function, items: [{name, transcript}]}) and writes one result line, after the
harness's marker, on a private copy of stdout. The scanner is a function over one transcript dict that returns a list
of {kind, turn}; each transcript is scanned on its own, and one that breaks the scanner is reported with the user's
line, never dropped. Imports and stubs are the reward harness's; containment is contained_run.py's.
"""

import os

import reward_harness as harness


def as_mark(value, name):
    """One mark as the scan counts it: a non-empty kind and an optional 0-based turn."""
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str) or not value["kind"]:
        raise TypeError(f"{name}() returned {value!r:.60} in its list, not a dict with a kind")
    turn = value.get("turn")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
        raise TypeError(f"{name}() returned turn {turn!r:.30}, not a turn number")
    return {"kind": value["kind"][:80], **({"turn": turn} if turn is not None else {})}


def scan(request):
    path, module, error = harness.load_user_file(request["file"])
    if error:
        return error
    name = request.get("function") or "scan"
    target = getattr(module, name, None)
    if target is None or not callable(target):
        return harness.failure("not-found", f"No function {name}(transcript) in {os.path.basename(path)}.")
    marks, failures = {}, {}
    for item in request["items"]:
        try:
            found = target(item["transcript"]) or []
            if not isinstance(found, (list, tuple)):
                raise TypeError(f"{name}() returned {type(found).__name__}, not a list of {{kind, turn}}")
            if found:
                marks[item["name"]] = [as_mark(m, name) for m in found]
        except BaseException as error:  # noqa: BLE001 - one broken transcript must not hide the others' marks
            failures[item["name"]] = {"message": f"{type(error).__name__}: {error}", "line": harness.user_line(error, path)}
    return {"ok": True, "marks": marks, "failures": failures}


if __name__ == "__main__":
    harness.serve(scan)
