"""`limited-login audit` against a backend in each of six languages, each verifying tokens with its ecosystem's
standard library: written naively (the library's documented call) and corrected (docs/AUDIT.md's recipe).
scripts/interop-languages installs the toolchains and runs this; scripts/test runs that.

For each language folder here (`<language>/build OUT` builds its backends, `<language>/run NAME --port P
--provider URL --app-id ID` starts one), every backend is audited against a provider of its own, and each corrected
one again with `--faults`. What each produces is pinned in expected.json: a change in a library or in the audit
shows. docs/AUDIT.md holds, each between its `languages:` markers, the table "library × hole, used naively" made
from expected.json and each corrected backend's `recipe:begin` … `recipe:end` region, exactly as printed by
--table and --recipes, so that the recipes are tested as written.

A language whose toolchain is missing is listed as NOT RUN with why, and the run fails unless --allow-not-run.
Each child's output is kept in .build/language-backends/logs/.

    python3 audit_languages.py BINARY [--allow-not-run] [LANGUAGE ...]
    python3 audit_languages.py --table      print the table docs/AUDIT.md holds (from expected.json)
    python3 audit_languages.py --recipes    print the recipes as docs/AUDIT.md holds them"""

import concurrent.futures
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
AUDIT_DOC = os.path.join(ROOT, "docs", "AUDIT.md")
OUT_ROOT = os.environ.get("LANGUAGE_BACKENDS_OUT", os.path.join(ROOT, ".build", "language-backends"))
LOGS = os.path.join(OUT_ROOT, "logs")
APP_ID = "1000000000000001"
ADMIN_TOKEN = "languages-admin-token-0123456789"
VERDICTS = ("hole", "warning", "unclear", "not-run", "fail")
# The resilience rows of a --faults run: `keys-500:after` and the like (a fault, a colon, a moment), and the two
# rotations. The base cases, judged in the run without faults, are left out of its comparison.
RESILIENCE_ROWS = re.compile(r"^(keys-[a-z0-9-]+:[a-z-]+|key-rotation|retired-key)$")
# Debian's toolchains, where scripts/interop-languages installs them (the same paths it checks), ahead of
# anything else on PATH (a rustup cargo, an rbenv ruby would not see Debian's libraries).
TOOLCHAINS = {"python": [], "node": ["node"], "go": ["go"], "ruby": ["ruby"], "rust": ["cargo"], "erlang": ["escript"]}
ENVIRONMENT = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
FENCES = {".py": "python", ".cjs": "js", ".go": "go", ".rb": "ruby", ".rs": "rust", ".escript": "erlang"}

# Every child still running, so that an interrupted run stops them all (each leads a process group of its own).
LIVE = set()
LIVE_LOCK = threading.Lock()


class Child:
    """A child process in a process group of its own, its output in a log under LOGS. With `ready`, reads its
    output until `ready(line)` returns a value (the child is then up), and keeps draining it into the log."""

    def __init__(self, arguments, name, ready=None):
        os.makedirs(LOGS, exist_ok=True)
        self.name = name
        self.log_path = os.path.join(LOGS, name + ".log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
            env=ENVIRONMENT, start_new_session=True)
        with LIVE_LOCK:
            LIVE.add(self)
        self.value = None
        if ready:
            self.value = self.wait_until(ready)
        threading.Thread(target=self.drain, daemon=True).start()

    def wait_until(self, ready, seconds=120):
        deadline = time.monotonic() + seconds  # liveness only
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.log.write(line)
            value = ready(line)
            if value:
                self.log.flush()
                return value
        self.stop()
        raise RuntimeError(f"{self.name} did not start; its output ({self.log_path}):\n{self.output()[-2000:]}")

    def drain(self):
        for line in self.process.stdout:
            self.log.write(line)
        self.log.flush()

    def output(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as file:
            return file.read()

    def wait(self, seconds):
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.stop()
            raise RuntimeError(f"{self.name} did not end within {seconds} s; its output: {self.log_path}")

    def stop(self):
        for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            if self.process.poll() is not None:
                break
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                continue
        with LIVE_LOCK:
            LIVE.discard(self)


def stop_everything():
    with LIVE_LOCK:
        children = list(LIVE)
    for child in children:
        child.stop()


def ready_line(expected):
    return lambda line: line.strip() == expected


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def audit(binary, language, library, variant, faults):
    """Runs one backend against a provider of its own (on a port the provider picks) and audits it; returns the
    report's verdict sets and the audit's seconds."""
    run_name = f"{language}-{library}-{variant}{'-faults' if faults else ''}"
    provider = backend = None
    try:
        provider = Child(
            [binary, "serve", "--port", "0", "--database", ":memory:", "--admin-token", ADMIN_TOKEN],
            run_name + "-provider",
            ready=lambda line: (re.match(r"Limited Login provider running at (\S+)", line) or [None, None])[1])
        url = provider.value
        port = free_port()
        backend = Child(
            [os.path.join(HERE, language, "run"), f"{library}-{variant}", "--port", str(port), "--provider", url,
             "--app-id", APP_ID], run_name + "-backend", ready=ready_line(f"listening on http://127.0.0.1:{port}"))
        arguments = [binary, "audit", "--endpoint", f"http://127.0.0.1:{port}/me", "--provider", url,
                     "--admin-token", ADMIN_TOKEN, "--app-id", APP_ID, "--header", "X-Nonce: {nonce}",
                     "--library", library, "--json"]
        if faults:
            # A recovery window beyond the usual 30 s key-set cooldowns, with room for a busy machine.
            arguments += ["--faults", "--fault-delay", "2", "--timeout", "10", "--recovery-window", "60"]
        began = time.monotonic()
        report_path = os.path.join(LOGS, run_name + ".json")
        with open(report_path, "w") as report_file:
            run = subprocess.Popen(arguments, stdout=report_file, stderr=subprocess.PIPE, text=True,
                                   env=ENVIRONMENT, start_new_session=True)
            try:
                _, errors = run.communicate(timeout=900)
            except subprocess.TimeoutExpired:
                os.killpg(run.pid, signal.SIGKILL)
                raise RuntimeError(f"the audit did not end within 900 s (backend log: {backend.log_path})")
        seconds = time.monotonic() - began
        try:
            with open(report_path) as file:
                report = json.load(file)
        except ValueError:
            raise RuntimeError(f"the audit printed no JSON (exit {run.returncode}): {errors[-2000:]}")
        measured = {"exit": report["exit_status"]}
        for verdict in VERDICTS:
            names = sorted(case["name"] for case in report["cases"] if case["verdict"] == verdict)
            measured[verdict] = [name for name in names if RESILIENCE_ROWS.match(name)] if faults else names
        return measured, seconds, backend.log_path
    finally:
        for child in (backend, provider):
            if child:
                child.stop()


def build(language):
    child = Child([os.path.join(HERE, language, "build"), os.path.join(OUT_ROOT, language)], f"{language}-build")
    status = child.wait(1800)
    if status != 0:
        raise RuntimeError(f"{language}/build failed (exit {status}):\n{child.output()[-3000:]}")
    return child.output()


def table(expected):
    """docs/AUDIT.md's table: each library used naively, its holes, its warnings, and what the recipe leaves."""
    lines = ["| language | library | holes, used naively | warnings, used naively | the recipe: holes, warnings |",
             "|---|---|---|---|---|"]
    for language, libraries in expected.items():
        for library, variants in libraries.items():
            naive, corrected = variants["naive"], variants["corrected"]
            holes = ", ".join(f"`{name}`" for name in naive["hole"]) or "none"
            warnings = ", ".join(f"`{name}`" for name in naive["warning"]) or "none"
            leftover = ", ".join(f"`{name}`" for name in corrected["warning"]) or "none"
            recipe = f"{len(corrected['hole'])} holes; warnings: {leftover}"
            lines.append(f"| {language} | `{library}` | {holes} | {warnings} | {recipe} |")
    return "\n".join(lines) + "\n"


def recipe_excerpts(language):
    """The `recipe:begin` … `recipe:end` region of each of the language's corrected backends (the files whose
    name has `corrected`), without the markers and the indentation its lines share."""
    excerpts = []
    folder = os.path.join(HERE, language)
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith(("_", ".")) and name != "target")
        for name in sorted(files):
            if "corrected" not in name:
                continue
            with open(os.path.join(root, name), errors="replace") as file:
                text = file.read()
            for match in re.finditer(r"[^\n]*recipe:begin[^\n]*\n(.*?)\n[^\n]*recipe:end", text, re.S):
                excerpts.append((os.path.relpath(os.path.join(root, name), HERE), textwrap.dedent(match.group(1)).strip("\n")))
    return excerpts


def recipes(expected):
    """The recipes as docs/AUDIT.md shows them: each corrected backend's recipe region under its file's name."""
    parts = []
    for language in expected:
        for path, excerpt in recipe_excerpts(language):
            parts.append(f"`{path}`:\n\n```{FENCES[os.path.splitext(path)[1]]}\n{excerpt}\n```\n")
    return "\n".join(parts)


def check_docs(expected):
    """The problems with docs/AUDIT.md's table and recipes (every language's, run or not: no toolchain needed).
    Each is exactly what --table or --recipes prints, between `<!-- languages:NAME -->` and `<!-- /languages:NAME -->`."""
    with open(AUDIT_DOC) as file:
        doc = file.read()
    problems = [f"{language}: no recipe:begin/recipe:end region in its corrected backends"
                for language in expected if not recipe_excerpts(language)]
    for name, text in (("table", table(expected)), ("recipes", recipes(expected))):
        match = re.search(rf"<!-- languages:{name} -->\n(.*?)<!-- /languages:{name} -->", doc, re.S)
        if not match:
            problems.append(f"docs/AUDIT.md has no <!-- languages:{name} --> … <!-- /languages:{name} --> region")
        elif match.group(1) != text:
            problems.append(f"docs/AUDIT.md's {name} differs from what the sources say; print it with: "
                            f"python3 Tests/Interop/language_backends/audit_languages.py --{name}")
    return problems


def interrupted(*_):
    raise KeyboardInterrupt


def main():
    arguments = sys.argv[1:]
    expected = json.load(open(os.path.join(HERE, "expected.json")))
    if arguments == ["--table"]:
        print(table(expected), end="")
        return 0
    if arguments == ["--recipes"]:
        print(recipes(expected), end="")
        return 0
    allow_not_run = "--allow-not-run" in arguments
    arguments = [argument for argument in arguments if argument != "--allow-not-run"]
    if not arguments or not os.access(arguments[0], os.X_OK):
        print(__doc__, file=sys.stderr)
        return 64
    binary, chosen = os.path.abspath(arguments[0]), arguments[1:] or list(expected)
    unknown = [name for name in chosen if name not in expected]
    if unknown:
        print(f"audit_languages: unknown language {', '.join(unknown)} (known: {', '.join(expected)})", file=sys.stderr)
        return 64
    # SIGTERM (a CI runner stopping the step) ends the run as Ctrl-C does: every child stopped.
    signal.signal(signal.SIGTERM, interrupted)
    try:
        return run(binary, chosen, expected, allow_not_run)
    except KeyboardInterrupt:
        stop_everything()
        print("audit_languages: interrupted; every provider and backend it started is stopped", file=sys.stderr)
        return 130


def run(binary, chosen, expected, allow_not_run):
    not_run, problems, ran = {}, [], []
    for language in chosen:
        missing = [command for command in TOOLCHAINS[language] if not os.access(f"/usr/bin/{command}", os.X_OK)]
        if missing:
            not_run[language] = f"/usr/bin/{', /usr/bin/'.join(missing)} missing (scripts/interop-languages installs it)"
            continue
        print(f"==> building the {language} backends", flush=True)
        try:
            print(build(language), end="", flush=True)
            ran.append(language)
        except RuntimeError as error:
            problems.append(str(error))

    jobs = [(language, library, variant, faults) for language in ran for library in expected[language]
            for variant, faults in (("naive", False), ("corrected", False), ("corrected", True))]
    print(f"==> auditing {len(jobs)} backend runs ({', '.join(ran) or 'none'}), each against a provider of its own",
          flush=True)
    results, failed = {}, {}
    # The runs mostly wait (on the audit's requests, and with --faults on its fault windows): several at once.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=4)
    try:
        futures = {pool.submit(audit, binary, *job): job for job in jobs}
        for future in concurrent.futures.as_completed(futures):
            try:
                results[futures[future]] = future.result()
            except Exception as error:  # noqa: BLE001 (each run's failure is reported, the others go on)
                failed[futures[future]] = f"{type(error).__name__}: {error}"
    finally:
        pool.shutdown(wait=False, cancel_futures=True)

    print(f"{'backend':34} {'run':8} {'exit':>4}  {'holes':>5} {'warnings':>8}  as pinned   seconds")
    for job in jobs:
        language, library, variant, faults = job
        name, kind = f"{language}/{library}-{variant}", "--faults" if faults else "cases"
        if job in failed:
            print(f"{name:34} {kind:8} FAILED (below)")
            problems.append(f"{name} {kind}: {failed[job]}")
            continue
        measured, seconds, log = results[job]
        pinned = expected[language][library]["faults" if faults else variant]
        same = measured == pinned
        print(f"{name:34} {kind:8} {measured['exit']:>4}  {len(measured['hole']):5} {len(measured['warning']):8}  "
              f"{'yes' if same else 'NO':9} {seconds:8.0f}")
        if not same:
            problems.append(f"{name} {kind}: measured {json.dumps(measured)}, pinned {json.dumps(pinned)} "
                            f"(backend log: {log})")
    problems += check_docs(expected)
    for language, why in not_run.items():
        print(f"{language}: NOT RUN ({why})")
        if not allow_not_run:
            problems.append(f"{language} was not run: {why}")
    print(f"{len(ran)} of {len(chosen)} languages run")
    if problems:
        print("\naudit_languages: " + "\n\naudit_languages: ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
