"""MTRL Workbench transcript reward: scores normalized transcripts with a user's reward, for any environment.

Reads one JSON request on stdin ({file, reward: {form, function | class, init, tools, score}, items: [{name, task,
transcript}]}) and writes one result line, after the harness's marker, on a private copy of stdout. Each item is scored
on its own: a transcript the reward cannot replay (an unknown tool, an exception) is reported with the user's line,
never dropped. Imports and stubs are the reward harness's; containment is contained_run.py's.
"""

import inspect
import json
import os

import reward_harness as harness


class Unreplayable(Exception):
    """A transcript the environment cannot replay: its tools are not the ones the scenario file maps."""


def tool_arguments(call):
    """A tool call's arguments as the model sent them: JSON text is parsed, anything else passed as it is."""
    value = call.get("arguments")
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value if value is not None else {}


def construct(cls, spec, task):
    row = task.get("row") or {"prompt": task.get("prompt", "")}
    init = spec.get("init")
    if init is None:
        return cls(row)
    kwargs = {}
    for parameter, field in init.items():
        if field not in row:
            raise Unreplayable(f"the task has no field '{field}' for {cls.__name__}({parameter}=…)")
        kwargs[parameter] = row[field]
    return cls(**kwargs)


def send(instance, spec, call):
    tool = spec["tools"].get(call.get("name"))
    if tool is None:
        known = ", ".join(sorted(spec["tools"])) or "none"
        raise Unreplayable(f"unknown tool '{call.get('name')}' (the scenario file maps {known})")
    # A call the model wrote as text goes to the tool's text method (the agent's raw-text route) when the file maps one.
    method = getattr(instance, tool["text"] if call.get("asText") and tool.get("text") else tool["method"])
    args = tool_arguments(call)
    passing = tool.get("arguments", "keywords")
    if passing == "object" or not isinstance(args, dict):
        return method(args)
    if isinstance(passing, list):
        return method(*[args.get(name) for name in passing])
    return method(**args)


def replay(cls, spec, item):
    instance = construct(cls, spec, item["task"])
    for turn in item["transcript"].get("turns", []):
        for call in turn.get("toolCalls", []):
            send(instance, spec, call)
    value = getattr(instance, spec.get("score", "reward"))
    return value() if callable(value) else value


def class_line(cls):
    try:
        return inspect.getsourcelines(cls)[1]
    except (OSError, TypeError):
        return 1


def score_line(cls, name):
    """The line of the property or method that holds the reward, where a broken expectation is reported."""
    value = inspect.getattr_static(cls, name, None)
    if isinstance(value, property):
        value = value.fget
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    return harness.first_line(value) if inspect.isfunction(value) else class_line(cls)


def find(module, spec, path):
    name = spec.get("function") if spec["form"] == "function" else spec.get("class")
    target = getattr(module, name or "", None)
    if target is None or not callable(target):
        kind = "function reward(task, transcript)" if spec["form"] == "function" else "environment class"
        return None, harness.failure("not-found", f"No {kind} '{name}' in {os.path.basename(path)}.")
    return target, None


def score(request):
    path, module, error = harness.load_user_file(request["file"])
    if error:
        return error
    spec = request["reward"]
    target, error = find(module, spec, path)
    if error:
        return error
    rewards, components, failures = {}, {}, {}
    what = f"{spec['function']}()" if spec["form"] == "function" else f"{spec['class']}.{spec.get('score', 'reward')}"
    for item in request["items"]:
        try:
            if spec["form"] == "function":
                value = target(item["task"], item["transcript"])
            else:
                value = replay(target, spec, item)
            rewards[item["name"]] = harness.as_reward(value, what)
            parts = harness.components_of(value)
            if parts:
                components[item["name"]] = parts
        except Unreplayable as error:
            failures[item["name"]] = {"message": str(error)}
        except BaseException as error:  # noqa: BLE001 - one broken transcript must not hide the others' scores
            failures[item["name"]] = {"message": f"{type(error).__name__}: {error}", "line": harness.user_line(error, path)}
    line = class_line(target) if spec["form"] == "class" else harness.first_line(target)
    reward_line = score_line(target, spec.get("score", "reward")) if spec["form"] == "class" else line
    return {"ok": True, "convention": spec["form"], "target": getattr(target, "__name__", "reward"), "line": line, "rewardLine": reward_line, "stubbed": harness.STUBBED, "rewards": rewards, "components": components, "failures": failures}


if __name__ == "__main__":
    harness.serve(score)
