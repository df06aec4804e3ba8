"""MTRL Workbench reward harness: the library that imports a user's reward code and answers for the scorers.

serve() reads one JSON request on stdin and writes one result line, prefixed with a marker, on a private
copy of stdout. While user code runs, file descriptor 1 points at stderr, so user prints (even from C code)
never corrupt the result. Third-party imports that are not installed become stubs: attribute access and
calls return stubs, decorators return the function unchanged, and `class X(Stub)` gives an ordinary class.
"""

import importlib.abc
import importlib.util
import inspect
import json
import math
import os
import sys
import traceback
import types

RESULT_MARKER = "@@mtrl-reward-result@@ "
# The reward rule, as REWARD_LIMIT and REWARD_RULE in src/core/numberRules.ts say it (a test keeps them equal).
REWARD_LIMIT = 1e9
REWARD_RULE = "a reward must be a finite number from -1e9 to 1e9"
STUBBED = []
USER_DIR = ""


class StubBase:
    """What a class inheriting from a stub inherits from: accepts any constructor arguments."""

    def __init__(self, *args, **kwargs):
        pass

    def __init_subclass__(cls, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Stub(f"{type(self).__name__}.{name}")


EXCEPTIONS = {}


def stub_attribute(owner, name):
    """`except missing.SomeError:` must work, so names that look like exceptions are real exception classes."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    if name.endswith(("Error", "Exception", "Warning")):
        return EXCEPTIONS.setdefault(f"{owner}.{name}", type(name, (Exception,), {"__module__": owner}))
    return Stub(f"{owner}.{name}")


class Stub:
    """Stands for anything from a module that is not installed."""

    def __init__(self, name):
        object.__setattr__(self, "_stub_name", name)

    def __getattr__(self, name):
        return stub_attribute(self._stub_name, name)

    def __instancecheck__(self, instance):
        return False

    def __subclasscheck__(self, subclass):
        return False

    def __call__(self, *args, **kwargs):
        # A decorator: give the decorated function or class back untouched.
        if len(args) == 1 and not kwargs and (inspect.isfunction(args[0]) or inspect.isclass(args[0]) or inspect.ismethod(args[0])):
            return args[0]
        return Stub(f"{self._stub_name}()")

    def __mro_entries__(self, bases):
        return (StubBase,)

    def __getitem__(self, key):
        return Stub(f"{self._stub_name}[]")

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __bool__(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    def __or__(self, other):
        return self

    __ror__ = __or__

    def __repr__(self):
        return f"<stub {self._stub_name}>"


class StubModule(types.ModuleType):
    def __getattr__(self, name):
        return stub_attribute(self.__name__, name)


class StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return StubModule(spec.name)

    def exec_module(self, module):
        module.__path__ = []
        top = module.__name__.split(".")[0]
        if top not in STUBBED:
            STUBBED.append(top)


def importer_is_user_code():
    """True when the import statement is in the user's folder, so optional imports of installed libraries keep failing normally."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith("<frozen importlib") and "importlib" not in name:
            return os.path.abspath(name).startswith(USER_DIR + os.sep)
        frame = frame.f_back
    return False


class StubFinder(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: only consulted when no real module was found."""

    def find_spec(self, fullname, path, target=None):
        if not importer_is_user_code():
            return None
        return importlib.util.spec_from_loader(fullname, StubLoader(), is_package=True)


def user_line(error, path):
    """The innermost traceback line that is in the user's file."""
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if os.path.abspath(frame.filename) == path:
            line = frame.lineno
    return line


def failure(kind, message, line=None, column=None):
    result = {"ok": False, "error": kind, "message": message}
    if line is not None:
        result["line"] = line
    if column is not None:
        result["column"] = column
    return result


def open_user_folder(path):
    """Imports from the user's folder resolve, and its imports of missing libraries get stubs: before their file loads."""
    global USER_DIR
    USER_DIR = os.path.dirname(path)
    sys.path.insert(0, USER_DIR)
    sys.meta_path.append(StubFinder())


def load_module(path):
    with open(path, "rb") as f:
        source = f.read()
    try:
        code = compile(source, path, "exec")
    except SyntaxError as error:
        return None, failure("syntax", f"{type(error).__name__}: {error.msg}", error.lineno, error.offset)
    name = os.path.splitext(os.path.basename(path))[0] or "reward"
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    except BaseException as error:  # noqa: BLE001 - sys.exit() in module code is an import failure too
        return None, failure("import", f"Importing the file failed: {type(error).__name__}: {error}", user_line(error, path))
    return module, None


def load_user_file(file):
    """The user's file loaded from its own folder: its absolute path, and its module or the failure that stopped it."""
    path = os.path.abspath(file)
    open_user_folder(path)
    module, error = load_module(path)
    return path, module, error


def first_line(function):
    function = inspect.unwrap(function)
    code = getattr(function, "__code__", None)
    return code.co_firstlineno if code else 1


# Components kept per transcript at most: a reward's named parts, not a metrics dump.
MAX_COMPONENTS = 20


def components_of(value):
    """A returned mapping's named numbers beside "reward" (outcome, shaping, …), those of its "metrics" included."""
    if not isinstance(value, dict):
        return {}
    found = {}
    for source in (value.get("metrics"), value):
        if not isinstance(source, dict):
            continue
        for name, number in source.items():
            if name == "reward" or not isinstance(name, str) or isinstance(number, bool) or not isinstance(number, (int, float)):
                continue
            if math.isfinite(number) and (name in found or len(found) < MAX_COMPONENTS):
                found[name] = float(number)
    return found


def as_reward(value, what):
    if isinstance(value, dict) and "reward" in value:
        value = value["reward"]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} returned {type(value).__name__} {value!r:.60}, not a number")
    value = float(value)
    if not math.isfinite(value) or abs(value) > REWARD_LIMIT:
        raise ValueError(f"{what} returned {value}, which breaks the reward rule: {REWARD_RULE}")
    return value


def serve(score_request):
    """Reads the request, runs score_request(request) with user prints sent to stderr, writes the one result line."""
    request = json.loads(sys.stdin.read())
    result_fd = os.dup(1)
    sys.stdout.flush()
    os.dup2(2, 1)
    try:
        result = score_request(request)
    except BaseException as error:  # noqa: BLE001 - the harness must always answer
        result = failure("runtime", f"{type(error).__name__}: {error}")
    sys.stdout.flush()
    sys.stderr.flush()
    os.write(result_fd, (RESULT_MARKER + json.dumps(result) + "\n").encode("utf-8"))
    # User code may have left threads running; the answer is written, so leave now.
    os._exit(0)
