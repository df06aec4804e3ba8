"""Lint an MTRL agent (main.py) with Python's own parser.

Reads the source on stdin (or from the path given as the only argument) and
prints one JSON object: {"findings": [...]} or {"syntaxError": {...}}.
Lines are 1-based, columns 0-based, as in the ast module.
"""
import ast
import json
import sys

TOKEN_WORDS = ("bearer", "token")
SESSION_CALLS = {"boto3.Session", "boto3.session.Session", "botocore.session.get_session", "Session", "get_session", "boto3.client"}
# The SDK's contract: a reward for every rollout; raising or an error status fails the trajectory, and failures cancel the job.
CONTRACT = "return a reward (the lowest your task gives) for every rollout; raising or {\"status\": \"error\"} fails the trajectory, and failed trajectories cancel the training job"
CACHE_DECORATORS = {"lru_cache", "cache", "cached", "ttl_cache", "cached_property"}
EFFORTS = ("low", "medium", "high")


def dotted(node):
    """`a.b.c` for a Name/Attribute chain, else ''."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    if isinstance(node, ast.Call):
        return dotted(node.func)
    return ""


def finding(rule, severity, message, node, **data):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        # Only the `def name` head: the whole body would underline the file.
        width = len("async def " if isinstance(node, ast.AsyncFunctionDef) else "def ") + len(node.name)
        return {"rule": rule, "severity": severity, "message": message, "line": node.lineno, "column": node.col_offset, "endLine": node.lineno, "endColumn": node.col_offset + width, "data": data}
    return {
        "rule": rule,
        "severity": severity,
        "message": message,
        "line": node.lineno,
        "column": node.col_offset,
        "endLine": getattr(node, "end_lineno", None) or node.lineno,
        "endColumn": getattr(node, "end_col_offset", None) or node.col_offset + 1,
        "data": data,
    }


def app_names(tree):
    """Names bound to BedrockAgentCoreApp() at module level."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and dotted(node.value.func).split(".")[-1] == "BedrockAgentCoreApp":
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def is_handler_decorator(node):
    return dotted(node).split(".")[-1] == "sagemaker_rft_handler"


def is_entrypoint(node):
    return dotted(node).endswith(".entrypoint")


def is_broad_handler(handler):
    return handler.type is None or dotted(handler.type) in ("Exception", "BaseException")


def functions(tree):
    """Every function and method of the file by name (a method also by its bare name, as `self.name()` calls it)."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.setdefault(node.name, []).append(node)
    return found


def called_names(fn):
    """The last name of every call in a function: `helper()`, `self.helper()` and `obj.helper()` all give `helper`."""
    return {dotted(n.func).split(".")[-1] for n in ast.walk(fn) if isinstance(n, ast.Call)} - {""}


def reachable(start, by_name, skip=frozenset()):
    """Functions of this file that `start` calls, directly or through others (not descending into `skip`)."""
    seen, todo = [], [start]
    while todo:
        fn = todo.pop()
        if fn in seen:
            continue
        seen.append(fn)
        for name in called_names(fn) - skip:
            todo.extend(by_name.get(name, []))
    return seen


def routed_entrypoints(fn, tree):
    """`@app.entrypoint` functions that reach `fn` through calls in this file (a router that answers health checks first)."""
    by_name = functions(tree)
    entries = [f for fns in by_name.values() for f in fns if f is not fn and any(is_entrypoint(d) for d in f.decorator_list)]
    return [e for e in entries if fn in reachable(e, by_name)]


def check_decorators(fn, apps, tree, out):
    decorators = fn.decorator_list
    handler = next((d for d in decorators if is_handler_decorator(d)), None)
    entry = next((d for d in decorators if is_entrypoint(d)), None)
    if not apps:
        out.append(finding("missing-app", "error", "No `app = BedrockAgentCoreApp()` in this file: without it no HTTP server starts and every invocation times out after 30 s.", handler or fn))
    if entry is None and routed_entrypoints(fn, tree):
        return
    if entry is None:
        out.append(finding("missing-entrypoint", "error", f"`{fn.name}` has `@sagemaker_rft_handler` but no `@app.entrypoint`: no HTTP server answers, every invocation times out after 30 s. Add `@app.entrypoint` as the outermost decorator, or call `{fn.name}` from your `@app.entrypoint` function.", handler or fn))
    elif decorators.index(handler) < decorators.index(entry):
        out.append(finding("decorator-order", "error", "`@app.entrypoint` must be the outermost decorator, above `@sagemaker_rft_handler`: swapped, every invocation times out after 30 s.", handler, handlerLine=handler.lineno, entrypointLine=entry.lineno))
    arity = handler_arity_message(fn)
    if arity:
        out.append(finding("handler-context", "error", arity, fn))


def handler_arity_message(fn):
    """The SDK's wrapper takes `payload` alone; AgentCore passes (payload, context) to a two-parameter entrypoint, so every call raises."""
    positional = list(fn.args.posonlyargs) + list(fn.args.args)
    if len(positional) < 2:
        return None
    wrapper = "async_wrapper" if isinstance(fn, ast.AsyncFunctionDef) else "sync_wrapper"
    names = ", ".join(a.arg for a in positional)
    return (f"`{fn.name}({names})` under `@sagemaker_rft_handler` fails every invocation with `TypeError: {wrapper}() takes 1 positional argument but 2 were given`: "
            f"the SDK's wrapper takes the payload alone, and AgentCore passes a context to an entrypoint that declares one. Take `payload` only.")


def error_status(node):
    """The value of a "status" key in a dict literal when it says error/fail."""
    if not isinstance(node, ast.Dict):
        return None
    for key, value in zip(node.keys, node.values):
        if isinstance(key, ast.Constant) and key.value == "status" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            if any(word in value.value.lower() for word in ("error", "fail")):
                return value.value
    return None


def check_returns(fn, out):
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            status = error_status(node.value)
            if status is not None:
                out.append(finding("error-status", "warning", f'The handler returns status "{status}": the service records a failed trajectory ("The agent signaled that the trajectory failed"). Per the SDK contract, {CONTRACT}.', node))
    broad = [n for n in fn.body if isinstance(n, ast.Try) and any(is_broad_handler(h) for h in n.handlers)]
    if not broad:
        out.append(finding("exception-escapes", "warning", f"Exceptions can escape `{fn.name}`: wrap the rollout in `try: … except Exception:`. Per the SDK contract, {CONTRACT}.", fn))
    for node in fn.body:
        if isinstance(node, ast.Raise):
            out.append(finding("exception-escapes", "warning", f"Raising from the handler fails the trajectory. Per the SDK contract, {CONTRACT}.", node))


def cached_functions(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(dotted(d).split(".")[-1] in CACHE_DECORATORS for d in node.decorator_list):
                names.add(node.name)
            elif any(isinstance(n, ast.Global) for n in node.body) or "cache" in node.name.lower():
                names.add(node.name)
    return names


def check_tokens(fn, tree, out):
    """Token and client calls on every rollout: in the handler and in the helpers it calls (a cached helper is not followed)."""
    cached = cached_functions(tree)
    nodes = [n for f in reachable(fn, functions(tree), skip=frozenset(cached)) for n in ast.walk(f)]
    seen = set()
    for node in nodes:
        if not isinstance(node, ast.Call) or id(node) in seen:
            continue
        seen.add(id(node))
        name = dotted(node.func)
        last = name.split(".")[-1]
        if last in cached or name.split(".")[0] in cached:
            continue
        if name in SESSION_CALLS or (any(w in last.lower() for w in TOKEN_WORDS) and any(v in last.lower() for v in ("generate", "get", "make", "new", "create", "sign", "fetch"))):
            out.append(finding("per-call-token", "warning", f"`{name}()` runs on every rollout with no cache: at 32 parallel rollouts this starves the credential provider. Keep one self-refreshing session, cache the bearer token ~5 min, and re-sign on 403.", node))


def payload_key(node, names):
    """"instance" or "prompt" when `node` reads that key of the payload: `payload["prompt"]` or `payload.get("prompt", …)`."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in names:
        key = node.slice
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and isinstance(node.func.value, ast.Name) and node.func.value.id in names and node.args:
        key = node.args[0]
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and key.value in ("instance", "prompt") else None


def check_payload_form(fn, tree, out):
    """The SDK sends the row as `instance`; the public Wordle sample reads top-level `prompt`: an agent must read both."""
    reads = []
    # Only the functions that receive the payload: a helper's `row["prompt"]` is the row, not the payload.
    for f in [fn] + routed_entrypoints(fn, tree):
        names = {a.arg for a in f.args.args[:1]} - {"self"} or {a.arg for a in f.args.args[1:2]}
        reads += [(n, payload_key(n, names)) for n in ast.walk(f) if payload_key(n, names)]
    keys = {k for _, k in reads}
    if len(keys) != 1:
        return
    node, key = reads[0]
    other = "prompt" if key == "instance" else "instance"
    source = "the SDK contract" if key == "instance" else "the public Wordle sample"
    message = f'The agent reads only `payload["{key}"]` ({source}); a rollout sent the other way carries `{other}` instead. Read both.'
    payload = dotted(node.value if isinstance(node, ast.Subscript) else node.func.value)
    out.append(finding("payload-form", "warning", message, node, key=key, payload=payload))


def check_reasoning_effort(tree, out):
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and dotted(node.value).endswith("environ") and isinstance(node.slice, ast.Constant) and node.slice.value == "REASONING_EFFORT":
            out.append(finding("reasoning-effort", "info", 'REASONING_EFFORT is read without a fallback: a runtime deployed without it fails every rollout. Use os.environ.get("REASONING_EFFORT", "medium").', node))
        if isinstance(node, ast.Call) and dotted(node.func).split(".")[-1] in ("get", "getenv") and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "REASONING_EFFORT":
            default = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg in ("default",)), None)
            if default is None:
                out.append(finding("reasoning-effort", "info", 'REASONING_EFFORT has no fallback: give one, e.g. os.environ.get("REASONING_EFFORT", "medium").', node))
            elif isinstance(default, ast.Constant) and isinstance(default.value, str) and default.value.strip().lower() not in EFFORTS:
                out.append(finding("reasoning-effort", "info", f'REASONING_EFFORT fallback "{default.value}" is not low, medium or high.', default))


def lint(source):
    tree = ast.parse(source)
    out = []
    apps = app_names(tree)
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(is_handler_decorator(d) for d in fn.decorator_list):
            check_decorators(fn, apps, tree, out)
            check_returns(fn, out)
            check_tokens(fn, tree, out)
            check_payload_form(fn, tree, out)
    check_reasoning_effort(tree, out)
    return out


def main():
    source = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    try:
        result = {"findings": lint(source)}
    except SyntaxError as error:
        result = {"syntaxError": {"message": error.msg, "line": error.lineno or 1}}
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
