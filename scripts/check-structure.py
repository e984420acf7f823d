#!/usr/bin/env python3
"""check-structure.py - the repository's size and documentation rules, checked.

    scripts/check-structure.py [--repo DIR]

Rules (each violation is one line; exit 1 if any):
  * no tracked source file (C, C++, CUDA, Python, shell) over 800 lines;
  * no C/C++/CUDA function body over 120 lines (brace-matched; array and
    struct initialisers, which are tables, do not count);
  * README.md at most 150 lines, none over 200 characters;
  * every folder holding tracked files (results folders aside) and every
    public header include/orion/*.h is named in ARCHITECTURE.md;
  * nothing in the tree outside benchmarks' results points at files
    outside the repository or at issue numbers.
"""
import argparse
import os
import re
import subprocess
import sys

SOURCE = re.compile(r"\.(c|h|cpp|cu|cuh|py|sh)$")
C_LIKE = re.compile(r"\.(c|h|cpp|cu|cuh)$")
MAX_FILE, MAX_FUNC = 800, 120


def tracked(repo):
    out = subprocess.run(["git", "-C", repo, "ls-files"], capture_output=True, text=True, check=True)
    return [f for f in out.stdout.split("\n") if f]


def strip_code(line, state):
    """Line without comments and string contents; state['c'] is True inside /* */."""
    out, i, n = [], 0, len(line)
    while i < n:
        if state["c"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["c"], i = False, j + 2
            continue
        ch = line[i]
        if line.startswith("/*", i):
            state["c"], i = True, i + 2
        elif line.startswith("//", i):
            break
        elif ch in "\"'":
            j = i + 1
            while j < n and line[j] != ch:
                j += 2 if line[j] == "\\" else 1
            out.append(ch + ch)
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def long_functions(path):
    """(first line, length, head) of every top-level function body over MAX_FUNC lines."""
    state, depth, head, start, found = {"c": False}, 0, "", None, []
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    for no, raw in enumerate(lines, 1):
        code = strip_code(raw, state)
        if code.lstrip().startswith("#"):
            continue
        for ch in code:
            if ch == "{":
                if depth == 0:
                    h = head.strip()
                    is_func = ")" in h and not h.endswith("=") and "=" not in h.split("(")[0] \
                        and not re.match(r"(extern|struct|enum|union|typedef|namespace)\b", h)
                    start = no if is_func else None
                    sig = h
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    if start is not None and no - start + 1 > MAX_FUNC:
                        found.append((start, no - start + 1, sig[-70:]))
                    start, head = None, ""
            elif ch == ";" and depth == 0:
                head = ""
            elif depth == 0:
                head += ch
        if depth == 0:
            head += " "
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    files = tracked(repo)
    bad = []
    for f in files:
        p = os.path.join(repo, f)
        if not SOURCE.search(f) or not os.path.isfile(p):
            continue
        with open(p, errors="replace") as fh:
            n = sum(1 for _ in fh)
        if n > MAX_FILE:
            bad.append(f"{f}: {n} lines (at most {MAX_FILE})")
        if C_LIKE.search(f):
            for line, length, sig in long_functions(p):
                bad.append(f"{f}:{line}: function of {length} lines (at most {MAX_FUNC}): {sig}")
    with open(os.path.join(repo, "README.md")) as fh:
        readme = fh.read().split("\n")
    if len(readme) > 150:
        bad.append(f"README.md: {len(readme)} lines (at most 150)")
    for i, l in enumerate(readme, 1):
        if len(l) > 200:
            bad.append(f"README.md:{i}: {len(l)} characters (at most 200)")
    with open(os.path.join(repo, "ARCHITECTURE.md")) as fh:
        arch = fh.read()
    dirs = sorted({os.path.dirname(f) for f in files} - {""})
    for d in dirs:
        if "results" in d.split("/") or d.startswith(".") or "/Inputs" in d:
            continue
        if d not in arch and os.path.basename(d) + "/" not in arch:
            bad.append(f"ARCHITECTURE.md: folder {d} not named")
    for f in files:
        if f.startswith("include/orion/") and f.endswith(".h") and os.path.basename(f) not in arch:
            bad.append(f"ARCHITECTURE.md: public header {f} not named")
    g = subprocess.run(["git", "-C", repo, "grep", "-nE", r"shared/|seeds/|issue [0-9]"],
                       capture_output=True, text=True)
    for l in g.stdout.split("\n"):
        if l and not re.match(r"benchmarks/.*results", l) and not l.startswith("scripts/check-structure.py"):
            bad.append(f"outside reference: {l[:160]}")
    for b in bad:
        print(b)
    print(f"check-structure: {len(bad)} problem(s) in {len(files)} tracked files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
