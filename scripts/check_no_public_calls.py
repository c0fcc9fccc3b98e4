#!/usr/bin/env python3
"""Layering check: nothing inside lib/ calls a public MPI_* (or PMPI_*)
function. The entry points in lib/api define them; a call from inside the
library would report its errors under the wrong call's name and re-enter the
API's checks. Type names used as casts (MPI_Aint(x), MPI_Count(x), ...) are
not calls. Comments and string literals are ignored.

  no_public_calls.py LIBDIR    exit 0: clean; 1: the offending lines."""
import os
import re
import sys

CALL = re.compile(r"(?<![A-Za-z0-9_])P?MPI_([A-Z][A-Za-z0-9_]*)\s*\(")
TYPES = {"Aint", "Count", "Offset", "Fint", "Comm", "Datatype", "Request", "Op", "Group", "Info", "Win",
         "Errhandler", "Message", "File", "Status"}
# A definition: a return type, then the name at the start of a line.
DEFINITION = re.compile(r"^\s*(extern\s+\"C\"\s+)?(static\s+)?(int|double|MPI_[A-Z][a-z]*|void)\s*\*?\s*P?MPI_")


def strip(text):
    """Text with comments and string/char literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main():
    root = sys.argv[1]
    bad = []
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith((".cpp", ".hpp", ".h", ".c")):
                continue
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8") as fh:
                lines = strip(fh.read()).split("\n")
            for no, line in enumerate(lines, 1):
                if DEFINITION.match(line):
                    continue
                for m in CALL.finditer(line):
                    if m.group(1) not in TYPES:
                        bad.append("%s:%d: calls %s" % (os.path.relpath(path, root), no, m.group(0).rstrip("( ")))
    for b in bad:
        print(b)
    print("%s public MPI_* calls inside %s" % (len(bad) if bad else "no", root))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
