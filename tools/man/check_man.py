#!/usr/bin/env python3
"""The man pages document everything there is (test lint-man-pages).

  check_man.py SOURCE_ROOT MAN_DIR [WRAPPER...]

Fails (exit 1, one line per problem) when
  - a spelling of an option in mpiexec's option table (kSpecs in
    launcher/options.cpp, the rows its parser reads) is not in the OPTIONS
    of mpiexec.1;
  - a "RINGMPI_*" or "MPIEXEC_*" string of lib/ or launcher/ (an environment
    variable the library or mpiexec reads or sets) is not in the ENVIRONMENT
    of ringmpi.7 (MPIEXEC_* also in that of mpiexec.1);
  - a page is missing or empty, mpirun.1 does not lead to mpiexec.1, or groff
    (where installed) warns about a page.
The sources are read here, not through man_tables, so a page generator that
drops a row fails this test too.
"""
import os
import re
import shutil
import subprocess
import sys


def plain(roff):
    """The text of a roff page, escapes resolved enough to search it."""
    roff = re.sub(r"\\f[BIRP]", "", roff)
    return roff.replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")


def section(roff, name):
    """The text of section .SH name of a page, up to the next .SH."""
    m = re.search(r"^\.SH " + re.escape(name) + r"\n(.*?)(?=^\.SH |\Z)", roff, re.S | re.M)
    return m.group(1) if m else ""


def has_word(text, word):
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


def table_options(root):
    src = open(os.path.join(root, "launcher", "options.cpp")).read()
    m = re.search(r"kSpecs\[\]\s*=\s*\{(.*?)\n\};", src, re.S)
    if not m:
        sys.exit("check_man.py: kSpecs not found in launcher/options.cpp")
    names = []
    for row in re.finditer(r'\{\s*"(-[^"]*)"', m.group(1)):
        names += row.group(1).split()
    if len(names) < 10:
        sys.exit("check_man.py: only %d option spellings found in kSpecs" % len(names))
    return names


def env_strings(root):
    found = {}
    for top in ("lib", "launcher"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".cpp", ".h", ".hpp")):
                    path = os.path.join(dirpath, f)
                    for v in re.findall(r'"((?:RINGMPI|MPIEXEC)_[A-Z0-9_]*[A-Z0-9])"', open(path).read()):
                        found.setdefault(v, os.path.relpath(path, root))
    return found


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    root, man_dir, wrappers = argv[1], argv[2], argv[3:]
    problems = []
    pages = {}
    for name in ["mpiexec.1", "ringmpi.7"] + [w + ".1" for w in wrappers]:
        path = os.path.join(man_dir, name)
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            problems.append("%s: missing or empty" % name)
            continue
        pages[name] = open(path).read()
    link = os.path.join(man_dir, "mpirun.1")
    if not os.path.exists(link) or os.path.realpath(link) != os.path.realpath(os.path.join(man_dir, "mpiexec.1")):
        problems.append("mpirun.1: not a link to mpiexec.1")
    if "mpiexec.1" in pages:
        options = plain(section(pages["mpiexec.1"], "OPTIONS"))
        for opt in table_options(root):
            if not has_word(options, opt):
                problems.append("mpiexec.1: option %s of launcher/options.cpp's table is not in OPTIONS" % opt)
    env7 = plain(section(pages.get("ringmpi.7", ""), "ENVIRONMENT"))
    env1 = plain(section(pages.get("mpiexec.1", ""), "ENVIRONMENT"))
    for var, where in sorted(env_strings(root).items()):
        if "ringmpi.7" in pages and not has_word(env7, var):
            problems.append("ringmpi.7: %s (used in %s) is not in ENVIRONMENT" % (var, where))
        if var.startswith("MPIEXEC_") and "mpiexec.1" in pages and not has_word(env1, var):
            problems.append("mpiexec.1: %s (used in %s) is not in ENVIRONMENT" % (var, where))
    groff = shutil.which("groff")
    if groff:
        for name in pages:
            p = subprocess.run([groff, "-man", "-ww", "-z", os.path.join(man_dir, name)], capture_output=True,
                               text=True)
            if p.returncode != 0 or p.stderr.strip():
                problems.append("%s: groff: %s" % (name, p.stderr.strip() or "exit status %d" % p.returncode))
    for p in problems:
        print("FAIL " + p)
    print("%d pages checked, %d problems" % (len(pages), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
