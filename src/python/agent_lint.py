"""Lint an MTRL agent (main.py) with Python's own parser.

Reads the source on stdin (or from the path given as the only argument) and
prints one JSON object: {"findings": [...]} or {"syntaxError": {...}}.
Lines are 1-based, columns 0-based, as in the ast module.
"""
import ast
import json
import sys

TOKEN_WORDS = ("bearer", "token")
SESSION_CALLS = {"boto3.Session", "boto3.session.Session", "botocore.session.get_session", "Session", "get_session"}
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


def check_decorators(fn, apps, out):
    decorators = fn.decorator_list
    handler = next((d for d in decorators if is_handler_decorator(d)), None)
    entry = next((d for d in decorators if is_entrypoint(d)), None)
    if not apps:
        out.append(finding("missing-app", "error", "No `app = BedrockAgentCoreApp()` in this file: without it no HTTP server starts and every invocation times out after 30 s.", handler or fn))
    if entry is None:
        out.append(finding("missing-entrypoint", "error", f"`{fn.name}` has `@sagemaker_rft_handler` but no `@app.entrypoint`: no HTTP server answers, every invocation times out after 30 s. Add `@app.entrypoint` as the outermost decorator.", handler or fn))
    elif decorators.index(handler) < decorators.index(entry):
        out.append(finding("decorator-order", "error", "`@app.entrypoint` must be the outermost decorator, above `@sagemaker_rft_handler`: swapped, every invocation times out after 30 s.", handler, handlerLine=handler.lineno, entrypointLine=entry.lineno))


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
                out.append(finding("error-status", "warning", f'The handler returns status "{status}": the service then cancels the whole training job ("The agent signaled that the trajectory failed"). Return a reward instead, e.g. {{"reward": -1.5}}.', node))
    broad = [n for n in fn.body if isinstance(n, ast.Try) and any(is_broad_handler(h) for h in n.handlers)]
    if not broad:
        out.append(finding("exception-escapes", "warning", f"Exceptions can escape `{fn.name}`: an error then cancels the whole training job. Wrap the game in `try: … except Exception:` and return a reward such as -1.5.", fn))
    for node in fn.body:
        if isinstance(node, ast.Raise):
            out.append(finding("exception-escapes", "warning", "Raising from the handler cancels the whole training job; return a reward such as -1.5 instead.", node))


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
    cached = cached_functions(tree)
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        name = dotted(node.func)
        last = name.split(".")[-1]
        if last in cached or name.split(".")[0] in cached:
            continue
        if name in SESSION_CALLS or (any(w in last.lower() for w in TOKEN_WORDS) and any(v in last.lower() for v in ("generate", "get", "make", "new", "create", "sign", "fetch"))):
            out.append(finding("per-call-token", "warning", f"`{name}()` runs on every rollout with no cache: at 32 parallel rollouts this starves the credential provider. Keep one self-refreshing session, cache the bearer token ~5 min, and re-sign on 403.", node))


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
            check_decorators(fn, apps, out)
            check_returns(fn, out)
            check_tokens(fn, tree, out)
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
