"""MTRL Workbench agent runner: imports a user's agent file and plays one rollout through its entrypoint.

Reads one JSON request on stdin ({file, payload}) and calls the function decorated with `@app.entrypoint`
(else the one with `@sagemaker_rft_handler`) with the payload, as AgentCore would. Writes one result line
({ok, result, target, line, stubbed}; a failure also names the stubbed packages and whether it arose in one) the way the reward harness does; packages that are not installed
become the harness's stubs, so only the agent's own model calls (to the payload's endpoint) reach the policy.
"""

import ast
import asyncio
import inspect
import json
import math
import os
import traceback

import reward_harness as harness

ENTRY_DECORATORS = ("entrypoint", "sagemaker_rft_handler")


def decorator_name(node):
    """`app.entrypoint`, `entrypoint`, `sagemaker_rft_handler(...)`: the last name of a decorator expression."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def find_entrypoint(path):
    """The decorated entry function's name and line, found in the source, so stubbed decorators need not remember it."""
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), path)
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                name = decorator_name(decorator)
                if name in ENTRY_DECORATORS:
                    found.setdefault(name, (node.name, node.lineno))
    for name in ENTRY_DECORATORS:
        if name in found:
            return found[name]
    return None


def call(function, payload):
    """The entrypoint with the payload (and AgentCore's context, when it takes one); coroutines are run to the end."""
    try:
        takes = len(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        takes = 1
    result = function(payload, None) if takes >= 2 else function(payload)
    if inspect.isawaitable(result):
        result = asyncio.run(result)
    return result


def raised_in_stub(error):
    """True when a stub stood in the way: the innermost frame is the stubs' own code, or the message names a stub."""
    frames = traceback.extract_tb(error.__traceback__)
    if frames and os.path.abspath(frames[-1].filename) == os.path.abspath(harness.__file__):
        return True
    return "Stub" in str(error) or "<stub " in str(error)


def run(request):
    path = os.path.abspath(request["file"])
    harness.open_user_folder(path)
    try:
        entry = find_entrypoint(path)
    except SyntaxError as error:
        return harness.failure("syntax", f"SyntaxError: {error.msg}", error.lineno, error.offset)
    if entry is None:
        return harness.failure(
            "not-found",
            f"No entrypoint in {os.path.basename(path)}: decorate the function that plays a rollout with @app.entrypoint (BedrockAgentCoreApp) or @sagemaker_rft_handler.",
        )
    module, error = harness.load_module(path)
    if error:
        return error
    name, line = entry
    function = getattr(module, name, None)
    if not callable(function):
        return harness.failure("not-found", f"{name} in {os.path.basename(path)} is not callable after import.", line)
    try:
        result = call(function, request["payload"])
    except BaseException as error:  # noqa: BLE001 - a raising entrypoint is a failed rollout, reported with its line
        failed = harness.failure("runtime", f"{type(error).__name__}: {error}", harness.user_line(error, path))
        return {**failed, "stubbed": harness.STUBBED, "inStub": raised_in_stub(error)}
    return {"ok": True, "target": name, "line": line, "stubbed": harness.STUBBED, "result": json_safe(json.loads(json.dumps(result, default=str)))}


def json_safe(value):
    """NaN and infinities as Python spells them ("nan", "inf"): JSON has no such numbers, and the reward rule names them."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_safe(item) for item in value]
    return value


if __name__ == "__main__":
    harness.serve(run)
