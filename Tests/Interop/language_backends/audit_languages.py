"""`limited-login audit` against a backend in each of six languages, each verifying tokens with its ecosystem's
standard library: written naively (the library's documented call) and corrected (docs/AUDIT.md's recipe).
scripts/interop-languages installs the toolchains and runs this; scripts/test runs that.

For each language folder here (`<language>/build OUT` builds its backends, `<language>/run NAME --port P
--provider URL --app-id ID` starts one), every backend is audited against a provider of its own, and each corrected
one again with `--faults`. What each produces is pinned in expected.json: a change in a library or in the audit
shows. docs/AUDIT.md's table "library × hole, used naively" is made from expected.json and must be the same, and
each recipe in docs/AUDIT.md must be, word for word, the part of its corrected backend between the `recipe:`
markers, so that the recipes are tested as written.

A language whose toolchain is missing is listed as not run, with why, never as passed.

    python3 audit_languages.py BINARY            every language
    python3 audit_languages.py BINARY go rust    some of them
    python3 audit_languages.py --table           print the table docs/AUDIT.md holds (from expected.json)
    python3 audit_languages.py --recipes         print the recipes as docs/AUDIT.md holds them"""

import concurrent.futures
import json
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
AUDIT_DOC = os.path.join(ROOT, "docs", "AUDIT.md")
APP_ID = "1000000000000001"
ADMIN_TOKEN = "languages-admin-token-0123456789"
VERDICTS = ("hole", "warning", "unclear", "not-run", "fail")
FAULT_CASES = ("FAULT:", "key-rotation", "retired-key")

# What each language needs to build and run its backends: the commands, and why a missing one stops it.
TOOLCHAINS = {
    "python": [],
    "node": ["node"],
    "go": ["go"],
    "ruby": ["ruby"],
    "rust": ["cargo"],
    "erlang": ["escript"],
}


def load_expected():
    with open(os.path.join(HERE, "expected.json")) as file:
        return json.load(file)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Process:
    """A child process with its output in a log file; stopped (SIGTERM, then SIGKILL) by `stop`."""

    def __init__(self, arguments, name, ready_line=None, environment=None):
        self.name = name
        self.log = tempfile.NamedTemporaryFile(prefix=f"languages-{name}-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            arguments, stdout=subprocess.PIPE if ready_line else self.log, stderr=self.log, text=True,
            env=environment, start_new_session=True,
        )
        if ready_line:
            self.wait_for_line(ready_line)

    def wait_for_line(self, expected, seconds=120):
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds  # liveness only
        line = ""
        while time.monotonic() < deadline and not line:
            if selector.select(timeout=1):
                line = self.process.stdout.readline() or "(exited)"
        selector.close()
        if line.strip() != expected:
            self.stop()
            raise RuntimeError(f"{self.name} did not start ({line.strip()!r}): {self.output()[-2000:]}")

    def output(self):
        with open(self.log.name, errors="replace") as file:
            return file.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()
        self.log.close()
        os.unlink(self.log.name)


def start_provider(binary):
    """A provider of the audit's own (faults change its keys), in memory, on a free port."""
    port = free_port()
    provider = Process(
        [binary, "serve", "--port", str(port), "--database", ":memory:", "--admin-token", ADMIN_TOKEN,
         "--log-level", "warning"], "provider")
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # liveness only
    while True:
        try:
            urllib.request.urlopen(url + "/health", timeout=2)
            return provider, url
        except OSError:
            if provider.process.poll() is not None or time.monotonic() > deadline:
                output = provider.output()
                provider.stop()
                raise RuntimeError(f"the provider did not start: {output[-2000:]}")
            time.sleep(0.2)


def audit(binary, language, backend, library, faults):
    """Runs one backend against a provider of its own and audits it; returns the report's verdict sets."""
    provider, url = start_provider(binary)
    started = None
    try:
        port = free_port()
        started = Process(
            [os.path.join(HERE, language, "run"), backend, "--port", str(port), "--provider", url, "--app-id", APP_ID],
            backend, ready_line=f"listening on http://127.0.0.1:{port}")
        arguments = [binary, "audit", "--endpoint", f"http://127.0.0.1:{port}/me", "--provider", url,
                     "--admin-token", ADMIN_TOKEN, "--app-id", APP_ID, "--header", "X-Nonce: {nonce}",
                     "--library", library, "--json"]
        if faults:
            # A recovery window beyond the usual 30 s key-set cooldowns, with room for a busy machine.
            arguments += ["--faults", "--fault-delay", "2", "--timeout", "10", "--recovery-window", "60"]
        began = time.monotonic()
        result = subprocess.run(arguments, capture_output=True, text=True, timeout=900)
        seconds = time.monotonic() - began
        try:
            report = json.loads(result.stdout)
        except ValueError:
            raise RuntimeError(f"audit of {backend}: no JSON (exit {result.returncode}): {result.stderr[-2000:]}")
        measured = {"exit": report["exit_status"]}
        for verdict in VERDICTS:
            names = sorted(case["name"] for case in report["cases"] if case["verdict"] == verdict)
            if faults:
                names = [name for name in names if name.startswith(FAULT_CASES)]
            measured[verdict] = names
        if faults:
            del measured["exit"]  # the base cases are judged in the run without faults
        return measured, seconds
    finally:
        if started:
            started.stop()
        provider.stop()


def build(language, out):
    result = subprocess.run([os.path.join(HERE, language, "build"), out], capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        raise RuntimeError(f"{language}/build failed (exit {result.returncode}):\n{result.stdout[-1500:]}{result.stderr[-3000:]}")
    return result.stdout


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
    """Each `recipe:begin` … `recipe:end` region of the language's corrected sources, without the markers and
    without the indentation its lines share."""
    excerpts = []
    folder = os.path.join(HERE, language)
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            with open(os.path.join(root, name), errors="replace") as file:
                text = file.read()
            for match in re.finditer(r"[^\n]*recipe:begin[^\n]*\n(.*?)\n[^\n]*recipe:end", text, re.S):
                excerpts.append((os.path.relpath(os.path.join(root, name), ROOT), textwrap.dedent(match.group(1))))
    return excerpts


def check_docs(expected, languages):
    """The problems with docs/AUDIT.md: the table differs from expected.json, or a recipe from its source."""
    problems = []
    with open(AUDIT_DOC) as file:
        doc = file.read()
    if table(expected) not in doc:
        problems.append("docs/AUDIT.md's table differs from expected.json; print it with: "
                        "python3 Tests/Interop/language_backends/audit_languages.py --table")
    for language in languages:
        excerpts = recipe_excerpts(language)
        if not excerpts:
            problems.append(f"{language}: no recipe:begin/recipe:end region in its sources")
        for path, excerpt in excerpts:
            if excerpt not in doc:
                problems.append(f"docs/AUDIT.md does not hold {path}'s recipe word for word")
    return problems


def recipes(expected):
    """The recipes as docs/AUDIT.md shows them: each corrected backend's recipe region under its file's name."""
    parts = []
    for language in expected:
        for path, excerpt in recipe_excerpts(language):
            fence = {".py": "python", ".cjs": "js", ".go": "go", ".rb": "ruby", ".rs": "rust", ".escript": "erlang"}
            parts.append(f"`{os.path.relpath(path, 'Tests/Interop/language_backends')}`:\n\n"
                         f"```{fence[os.path.splitext(path)[1]]}\n{excerpt}\n```\n")
    return "\n".join(parts)


def main():
    arguments = sys.argv[1:]
    expected = load_expected()
    if arguments == ["--table"]:
        print(table(expected), end="")
        return 0
    if arguments == ["--recipes"]:
        print(recipes(expected), end="")
        return 0
    if not arguments or not os.access(arguments[0], os.X_OK):
        print(__doc__, file=sys.stderr)
        return 64
    binary, chosen = os.path.abspath(arguments[0]), arguments[1:] or list(expected)
    unknown = [name for name in chosen if name not in expected]
    if unknown:
        print(f"audit_languages: unknown language {', '.join(unknown)} (known: {', '.join(expected)})", file=sys.stderr)
        return 64
    out_root = os.environ.get("LANGUAGE_BACKENDS_OUT", os.path.join(ROOT, ".build", "language-backends"))
    not_run, problems, ran = {}, [], []
    for language in chosen:
        missing = [command for command in TOOLCHAINS[language] if shutil.which(command) is None]
        if missing:
            not_run[language] = f"{', '.join(missing)} not installed"
            continue
        print(f"==> building the {language} backends", flush=True)
        try:
            print(build(language, os.path.join(out_root, language)), end="", flush=True)
            ran.append(language)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            problems.append(str(error))

    jobs = []
    for language in ran:
        for library, variants in expected[language].items():
            for variant in ("naive", "corrected"):
                jobs.append((language, library, variant, False))
            jobs.append((language, library, "corrected", True))
    print(f"==> auditing {len(jobs)} backend runs ({', '.join(ran) or 'none'}), each against a provider of its own",
          flush=True)
    # The runs mostly wait (on the audit's requests, and with --faults on its fault windows): several at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        futures = {pool.submit(audit, binary, language, f"{library}-{variant}", library, faults): (language, library, variant, faults)
                   for language, library, variant, faults in jobs}
        results = {}
        for future in concurrent.futures.as_completed(futures):
            key = futures[future]
            try:
                results[key] = future.result()
            except (RuntimeError, subprocess.TimeoutExpired, KeyError) as error:
                problems.append(f"{key[1]}-{key[2]}{' --faults' if key[3] else ''}: {error}")

    print(f"{'backend':34} {'run':8} {'exit':>4}  {'holes':>5} {'warnings':>8}  as pinned   seconds")
    for language, library, variant, faults in jobs:
        key = (language, library, variant, faults)
        if key not in results:
            continue
        measured, seconds = results[key]
        pinned = expected[language][library]["faults" if faults else variant]
        same = measured == pinned
        name = f"{language}/{library}-{variant}"
        print(f"{name:34} {'--faults' if faults else 'cases':8} {str(measured.get('exit', '')):>4}  "
              f"{len(measured['hole']):5} {len(measured['warning']):8}  {'yes' if same else 'NO':9} {seconds:8.0f}")
        if not same:
            problems.append(f"{name}{' --faults' if faults else ''}: measured {json.dumps(measured)}, "
                            f"pinned {json.dumps(pinned)}")
    problems += check_docs(expected, ran)
    for language, why in not_run.items():
        print(f"{language}: NOT RUN ({why})")
    print(f"{len(ran)} of {len(chosen)} languages run")
    if problems:
        print("\naudit_languages: " + "\n\naudit_languages: ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
