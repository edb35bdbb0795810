#!/usr/bin/env python3
"""Checks the README's and docs' examples against the binary they describe.

Two checks over every fenced code block of README.md and docs/*.md:
- A worked example (a line `$ build/cli/ergon ...` followed by what it prints) is run, in a scratch
  folder that links the source tree's data, and what the binary prints (stdout and stderr as one stream) must equal
  the block's lines; a line `...` stands for any number of lines left out. A block preceded by `<!-- example not run: REASON -->` is only checked as below.
- Every other `build/cli/ergon SUBCOMMAND ...` line must name a subcommand the binary has, only options
  its `--help` lists, and shipped files (configs/, workloads/, tests/data/) that exist.

Usage: check_doc_examples.py ERGON_BINARY SOURCE_DIR
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BINARY_IN_DOCS = "build/cli/ergon"
SKIP_MARK = re.compile(r"<!--\s*example not run:")
SHIPPED_PREFIXES = ("configs/", "workloads/", "tests/data/")
# Words the examples use that name outputs, not inputs (so they need not exist).
OUTPUT_OPTIONS = {"--out", "-o", "--config-out"}


def fenced_blocks(text):
    """Yields (first_line_number, lines, preceding_text) for each ``` block."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        if lines[index].startswith("```"):
            start = index + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            preceding = "\n".join(lines[max(0, index - 3):index])
            yield start + 1, lines[start:end], preceding
            index = end + 1
        else:
            index += 1


def joined_commands(block_lines):
    """Yields (offset, command, output_lines): a command joins `\\` continuations; output follows a `$`."""
    index = 0
    while index < len(block_lines):
        line = block_lines[index]
        prompt = line.startswith("$ ")
        body = line[2:] if prompt else line
        offset = index
        while body.rstrip().endswith("\\") and index + 1 < len(block_lines):
            index += 1
            body = body.rstrip()[:-1] + " " + block_lines[index].strip()
        index += 1
        output = []
        if prompt:
            while index < len(block_lines) and not block_lines[index].startswith("$ "):
                output.append(block_lines[index])
                index += 1
        yield offset, prompt, body.strip(), output


def command_words(command):
    """The words of a documented command line: comments dropped, placeholders like [--x N] kept as words."""
    command = re.sub(r"\s+#.*$", "", command)
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


class HelpCache:
    def __init__(self, binary):
        self.binary = binary
        self.texts = {}

    def text(self, words):
        key = tuple(words)
        if key not in self.texts:
            run = subprocess.run([self.binary, *words, "--help"], capture_output=True, text=True)
            self.texts[key] = run.stdout if run.returncode == 0 else None
        return self.texts[key]


def subcommand_path(help_cache, words):
    """The longest run of leading words that is a subcommand (e.g. ['estimate', 'roofline'])."""
    path = []
    for word in words:
        if word.startswith("-") or "/" in word or "." in word:
            break
        if help_cache.text(path + [word]) is None:
            break
        path.append(word)
    return path


def check_usage(help_cache, source_dir, words, where):
    """Problems with one documented command line (subcommand, options, shipped files)."""
    problems = []
    arguments = words[1:]
    path = subcommand_path(help_cache, arguments)
    if arguments and not arguments[0].startswith("-") and not path:
        return [f"{where}: `{arguments[0]}` is not an ergon subcommand"]
    help_text = help_cache.text(path) or ""
    previous = ""
    for word in arguments[len(path):]:
        clean = word.strip("[]|")
        option = clean.split("=")[0]
        if option.startswith("-") and option not in ("-", "--") and re.match(r"^--?[A-Za-z]", option):
            if not re.search(r"(^|[\s,])" + re.escape(option) + r"([\s,=]|$)", help_text):
                problems.append(f"{where}: `ergon {' '.join(path)}` has no option {option}")
        elif clean.startswith(SHIPPED_PREFIXES) and previous not in OUTPUT_OPTIONS:
            if "*" not in clean and "{" not in clean and not (Path(source_dir) / clean).exists():
                problems.append(f"{where}: {clean} does not exist in the source tree")
        previous = clean
    return problems


def scratch_folder(source_dir, binary):
    """A folder where the docs' relative paths resolve: the source tree's entries linked, and the binary."""
    folder = Path(tempfile.mkdtemp(prefix="doc_examples_"))
    for entry in Path(source_dir).resolve().iterdir():
        if entry.name not in ("build", ".git", "results"):
            (folder / entry.name).symlink_to(entry)
    (folder / "build" / "cli").mkdir(parents=True)
    (folder / "build" / "cli" / "ergon").symlink_to(Path(binary).resolve())
    return folder


def matches(expected, printed):
    """Whether the printed lines equal the documented ones, each `...` line standing for any run of lines."""
    # reachable[j]: the documented lines so far can produce the first j printed lines.
    reachable = [True] + [False] * len(printed)
    for line in expected:
        if line.strip() == "...":
            for j in range(1, len(printed) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
        else:
            reachable = [False] + [reachable[j - 1] and printed[j - 1] == line for j in range(1, len(printed) + 1)]
    return reachable[len(printed)]


def run_example(folder, command):
    words = command_words(command)
    # One stream, as a terminal shows them: notes on stderr fall between the lines of stdout.
    run = subprocess.run(words, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    printed = run.stdout.rstrip("\n").split("\n")
    return [line.rstrip() for line in printed]


def main():
    binary, source_dir = sys.argv[1], sys.argv[2]
    help_cache = HelpCache(binary)
    documents = [Path(source_dir) / "README.md"] + sorted((Path(source_dir) / "docs").glob("*.md"))
    folder = scratch_folder(source_dir, binary)
    problems, examples_run, examples_skipped, lines_checked = [], 0, 0, 0
    for document in documents:
        name = document.relative_to(source_dir)
        for first_line, block, preceding in fenced_blocks(document.read_text()):
            skipped = SKIP_MARK.search(preceding) is not None
            for offset, prompt, command, output in joined_commands(block):
                words = command_words(command)
                if not words or words[0] != BINARY_IN_DOCS:
                    continue
                where = f"{name}:{first_line + offset}"
                lines_checked += 1
                problems += check_usage(help_cache, source_dir, words, where)
                if not prompt:
                    continue
                if skipped:
                    examples_skipped += 1
                    continue
                examples_run += 1
                expected = [line.rstrip() for line in output]
                while expected and not expected[-1]:
                    expected.pop()
                printed = run_example(folder, command)
                if not matches(expected, printed):
                    import difflib
                    diff = "\n".join(difflib.unified_diff(expected, printed, "documented", "printed", lineterm=""))
                    problems.append(f"{where}: `{command}` prints something else than the docs show:\n{diff}")
    shutil.rmtree(folder, ignore_errors=True)  # links only: the source tree is not touched
    for problem in problems:
        print(problem)
    print(f"{lines_checked} documented command lines checked; {examples_run} worked examples run, "
          f"{examples_skipped} marked not run")
    if problems:
        print(f"{len(problems)} problems")
        return 1
    print("doc examples match the binary")
    return 0


if __name__ == "__main__":
    sys.exit(main())
