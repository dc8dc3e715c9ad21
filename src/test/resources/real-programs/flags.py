"""The real programs' own argument parsers, asked from the pinned environment's python.

  flags.py dump PROGRAM       prints the program's flag vocabulary (the format of
                              src/main/resources/dev/srt/operator/emulator/flags/*.flags)
  flags.py verdicts PROGRAM   reads one JSON object per line, {"argv": [...], "env": {...}}, and
                              prints one JSON verdict per line: {"accepted": bool, "status": int,
                              "flag": the refused flag or null, "message": str}

PROGRAM is one of sglang_router.launch_router, dynamo.frontend, aiperf, dynamo.sglang.sidecar
(dump only: its parser is clap inside Rust, asked through --help; its verdicts come from dry
starts). Each verdict runs the program's own parse phase, nothing after it: sglang_router's
parse_router_args, dynamo.frontend's main.parse_args (which also validates the config), aiperf's
cyclopts app plus resolve_config and build_benchmark_plan (what `aiperf profile` does before it
starts a benchmark).
"""

import argparse
import contextlib
import io
import json
import logging
import os
import re
import subprocess
import sys

FLAG = re.compile(r"(--?[A-Za-z0-9][A-Za-z0-9_-]*)")


def _choices(values):
    if values is None:
        return None
    if isinstance(values, (list, tuple)):
        return [str(v) for v in values]
    return sorted(str(v) for v in values)


def _argparse_lines(parser):
    out = []
    for action in parser._actions:
        if not action.option_strings:
            continue
        names = list(action.option_strings)
        negatives = []
        if isinstance(action, argparse.BooleanOptionalAction):
            negatives = [n for n in names if n.startswith("--no-")]
            names = [n for n in names if n not in negatives]
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            kind = "exit"
        elif action.nargs == 0:
            kind = "flag"
        elif action.nargs in (None, 1):
            kind = "value"
        elif action.nargs == "?":
            kind = "optional"
        elif action.nargs == "*":
            kind = "list0"
        else:
            kind = "list"
        line = ",".join(names) + " " + kind
        if negatives:
            line += " negative=" + ",".join(negatives)
        if action.type in (int, float):
            line += " type=" + action.type.__name__
        choices = _choices(action.choices)
        if choices and "--tool-call-parser" in names:
            # sglang-router lists these from its Rust registry in an order that changes per process.
            choices = sorted(choices)
        if choices:
            line += " choices=" + "|".join(choices)
        if action.required:
            line += " required"
        out.append(line)
    return out


def router_parser():
    from sglang_router.router_args import RouterArgs

    # What sglang_router.launch_router.parse_router_args builds (sglang-router 0.3.2).
    parser = argparse.ArgumentParser(prog="launch_router.py")
    RouterArgs.add_cli_args(parser, use_router_prefix=False)
    return parser


def frontend_parser():
    from dynamo.frontend.frontend_args import FrontendArgGroup

    # What dynamo.frontend.main.parse_args builds (ai-dynamo 1.6.1).
    parser = argparse.ArgumentParser(prog="dynamo.frontend")
    FrontendArgGroup().add_arguments(parser)
    return parser


def aiperf_lines():
    from aiperf.cli import app

    out = []
    for a in app["profile"].assemble_argument_collection():
        if a.children:
            continue
        count, consume_all = a.token_count()
        negatives = [n for n in a.names if n in (a.parameter.negative or ())]
        names = [n for n in a.names if n not in negatives]
        kind = "flag" if count == 0 else ("list" if consume_all else "value")
        line = ",".join(names) + " " + kind
        if negatives:
            line += " negative=" + ",".join(negatives)
        choices = _enum_choices(a.hint)
        if choices:
            line += " choices=" + "|".join(choices)
        out.append(line)
    return out


def _enum_choices(hint):
    import enum
    import typing

    args = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Annotated:
        return _enum_choices(args[0])
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return [str(m.value) for m in hint]
    if typing.get_origin(hint) is typing.Literal:
        return [str(v) for v in args]
    if args and type(None) in args and len(args) == 2:
        return _enum_choices(next(x for x in args if x is not type(None)))
    return None


HELP_OPTION = re.compile(r"^\s+(?:-(\w), )?--([\w-]+)(?: <([A-Z_]+)>)?\s*$")


def sidecar_lines():
    text = subprocess.run([sys.executable, "-m", "dynamo.sglang.sidecar", "--help"], capture_output=True, text=True,
                          timeout=30, check=True).stdout
    usage = next(line for line in text.splitlines() if line.startswith("Usage:"))
    lines, current, choices = [], None, []

    def flush():
        if current is None:
            return
        names, metavar, env = current
        line = ",".join(names) + (" value metavar=" + metavar if metavar else (" exit" if "--help" in names else " flag"))
        if env:
            line += " env=" + env
        if choices:
            line += " choices=" + "|".join(choices)
        if metavar and "--" + names[0][2:] + " <" + metavar + ">" in usage.replace("[OPTIONS] ", ""):
            line += " required"
        lines.append(line)

    for raw in text.splitlines():
        m = HELP_OPTION.match(raw)
        if m:
            flush()
            names = ["--" + m.group(2)] + (["-" + m.group(1)] if m.group(1) else [])
            current, choices = [names, m.group(3), None], []
            continue
        if current is None:
            continue
        env = re.search(r"\[env: ([A-Z0-9_]+)=", raw)
        if env:
            current[2] = env.group(1)
        listed = re.search(r"\[possible values: ([^\]]+)\]", raw)
        if listed:
            choices = [v.strip() for v in listed.group(1).split(",")]
        item = re.match(r"^\s+- ([\w-]+):", raw)
        if item:
            choices.append(item.group(1))
    flush()
    return lines


def dump(program):
    if program == "sglang_router.launch_router":
        print("# dialect: argparse")
        lines = _argparse_lines(router_parser())
    elif program == "dynamo.frontend":
        print("# dialect: argparse-known")
        lines = _argparse_lines(frontend_parser())
    elif program == "aiperf":
        print("# dialect: cyclopts")
        lines = aiperf_lines()
    elif program == "dynamo.sglang.sidecar":
        print("# dialect: clap")
        lines = sidecar_lines()
    else:
        raise SystemExit("unknown program " + program)
    for line in lines:
        print(line)


def _offending(text, argv):
    """The flag a refusal names: the first option of argv that the message mentions."""
    mentioned = set(FLAG.findall(text))
    for token in argv:
        name = token.split("=", 1)[0]
        if name.startswith("-") and name in mentioned:
            return name
    found = FLAG.findall(text)
    return found[0] if found else None


def _field_flag(message, argv):
    """pydantic names the field (endpoint_type): the flag is its --kebab-case spelling, if given."""
    for token in argv:
        name = token.split("=", 1)[0]
        if name.startswith("--") and re.search(r"(^|\s)" + re.escape(name[2:].replace("-", "_")) + r"(\s|$)", message):
            return name
    return None


def verdict_router(argv):
    from sglang_router.launch_router import parse_router_args

    parse_router_args(argv)


def verdict_frontend(argv):
    from dynamo.frontend import main

    sys.argv = ["dynamo.frontend"] + argv
    main.parse_args()


def verdict_aiperf(argv):
    from aiperf.cli import app
    from aiperf.config.flags.resolver import resolve_config
    from aiperf.config.loader import build_benchmark_plan

    _, bound, _ = app.parse_args(argv, exit_on_error=False, print_error=False)
    cli_config = bound.arguments["cli_config"]
    build_benchmark_plan(resolve_config(cli_config, cli_config.config_file))


class _Captured(logging.Handler):
    def __init__(self, sink):
        super().__init__(logging.DEBUG)
        self.sink = sink

    def emit(self, record):
        self.sink.write(record.getMessage() + "\n")


def verdicts(program):
    check = {"sglang_router.launch_router": verdict_router, "dynamo.frontend": verdict_frontend,
             "aiperf": verdict_aiperf}[program]
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        argv = request["argv"]
        saved = dict(os.environ)
        os.environ.update(request.get("env", {}))
        sink = io.StringIO()
        handler = _Captured(sink)
        logging.getLogger().addHandler(handler)
        status, message = 0, ""
        try:
            with contextlib.redirect_stderr(sink), contextlib.redirect_stdout(sink):
                check(argv)
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
        except Exception as e:  # noqa: BLE001 - every refusal is a verdict
            status = 1
            sink.write(type(e).__name__ + ": " + str(e) + "\n")
        finally:
            logging.getLogger().removeHandler(handler)
            os.environ.clear()
            os.environ.update(saved)
        text = sink.getvalue()
        if status != 0:
            lines = [l for l in text.splitlines() if l.strip() and not l.startswith(("usage:", " "))]
            message = "\n".join(lines[-6:])
            flag = _offending(message, argv) or _field_flag(message, argv)
        else:
            flag = None
        out.write(json.dumps({"accepted": status == 0, "status": status, "flag": flag, "message": message}) + "\n")
        out.flush()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    {"dump": dump, "verdicts": verdicts}[sys.argv[1]](sys.argv[2])
