#!/usr/bin/env python3
"""Checks the #include arrows of lib/, launcher/ and fortran/ against scripts/layers.txt.

Fails, naming file and line, when an #include crosses a layer the wrong way,
includes a header that layers.txt marks private to its own folder from
outside that folder, names a folder the map does not know, or when headers
include each other in a cycle. Usage: check_layers.py [repository root]
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_map(path):
    """(arrows, private headers): layer -> layers below it; "layer/header" of the private ones."""
    arrows = {}
    private = set()
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("private "):
            for h in line.split()[1:]:
                if "/" not in h:
                    sys.exit(f"{path}:{n}: a private header is named as folder/file: {h}")
                private.add(h)
            continue
        if "->" not in line:
            sys.exit(f"{path}:{n}: expected 'layer -> layer ...' or 'private folder/header ...'")
        name, below = line.split("->", 1)
        arrows[name.strip()] = below.split()
    for name, below in arrows.items():
        for b in below:
            if b not in arrows:
                sys.exit(f"{path}: {name} -> {b}: {b} has no line of its own")
    for h in private:
        if h.split("/", 1)[0] not in arrows:
            sys.exit(f"{path}: private {h}: {h.split('/', 1)[0]} has no line of its own")
    return arrows, private


def closure(arrows):
    """Layer -> every layer below it; exits if the map itself has a cycle."""
    below = {}

    def visit(name, path):
        if name in path:
            sys.exit("layers.txt: the map has a cycle: " + " -> ".join(path[path.index(name):] + [name]))
        if name not in below:
            s = set()
            for b in arrows[name]:
                s.add(b)
                s |= visit(b, path + [name])
            below[name] = s
        return below[name]

    for name in arrows:
        visit(name, [])
    return below


def sources(root, arrows):
    """(layer, path relative to root) of every C++ file in a layer."""
    for layer in arrows:
        # launcher/ and fortran/ (the Fortran bindings) are top-level folders.
        base = os.path.join(root, layer if layer in ("launcher", "fortran") else os.path.join("lib", layer))
        if not os.path.isdir(base):
            continue
        for d, _, files in os.walk(base):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp", ".h", ".c")):
                    yield layer, os.path.relpath(os.path.join(d, f), root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    arrows, private = read_map(os.path.join(root, "scripts", "layers.txt"))
    below = closure(arrows)
    errors = []
    # lib/ folders the map does not name.
    for entry in sorted(os.listdir(os.path.join(root, "lib"))):
        if os.path.isdir(os.path.join(root, "lib", entry)) and entry not in arrows:
            errors.append(f"lib/{entry}: a folder that scripts/layers.txt does not place")
    graph = {}  # header-level graph for the cycle check: file -> [(included file, line)]
    for layer, path in sources(root, arrows):
        edges = graph.setdefault(path, [])
        for n, line in enumerate(open(os.path.join(root, path), encoding="utf-8", errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            if "/" not in inc:
                target_layer, target = layer, os.path.join(os.path.dirname(path), inc)
            else:
                target_layer = inc.split("/", 1)[0]
                target = os.path.join("lib", inc)
                if target_layer not in arrows:
                    continue  # not ours (e.g. a system header given with quotes)
            if target_layer != layer and target_layer not in below[layer]:
                errors.append(f"{path}:{n}: #include \"{inc}\": {layer} may not include {target_layer} "
                              f"({layer} may include: {', '.join(sorted(below[layer])) or 'nothing'})")
            elif target_layer != layer and inc in private:
                errors.append(f"{path}:{n}: #include \"{inc}\": {inc} is private to lib/{target_layer} "
                              f"(scripts/layers.txt); what other layers need belongs in a public header of it")
            edges.append((os.path.normpath(target), n))
    # Include cycles between files (within a layer the map cannot see them).
    state = {}
    def dfs(f, stack):
        state[f] = 1
        for t, n in graph.get(f, []):
            if state.get(t) == 1:
                cyc = stack[stack.index(t):] + [t] if t in stack else [f, t]
                errors.append(f"{f}:{n}: include cycle: " + " -> ".join(cyc))
            elif t not in state:
                dfs(t, stack + [t])
        state[f] = 2
    for f in sorted(graph):
        if f not in state:
            dfs(f, [f])
    for e in errors:
        print(e)
    print(f"layering: {len(graph)} files, {sum(len(v) for v in graph.values())} includes, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
