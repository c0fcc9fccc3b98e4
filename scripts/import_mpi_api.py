#!/usr/bin/env python3
"""Convert the MPI Forum's machine-readable API of MPI-4.1 into
fortran/api/mpi41.json, the description the Fortran bindings are generated
from (fortran/gen_fortran.py). Run by hand when the standard's data changes,
not by the build:

  PYTHONPATH=<pympistandard>/src scripts/import_mpi_api.py fortran/api/mpi41.json
  scripts/import_mpi_api.py --additions fortran/api/mpi41.json

<pympistandard> is a checkout of github.com/mpi-forum/pympistandard, whose
src/pympistandard/data/apis.json is extracted from the standard's LaTeX
sources; its Python package renders each procedure's ISO C, Fortran 90
(mpif.h / use mpi) and Fortran 2008 (use mpi_f08) expression. This script
keeps, per procedure and per parameter, the facts a binding generator needs
(kind, direction, array length, optionality, the type in each language), so
the repository's description does not depend on the package at build time.

pympistandard's data turned out to describe MPI-4.0: the 24 procedures that
MPI-4.1 adds (MPI_Request_get_status_all/any/some, MPI_Status_get_source/
tag/error and the set_ ones, MPI_Get_hw_resource_info,
MPI_Type_get_value_index, MPI_Remove_error_class/code/string, the
MPI_Comm_/MPI_Session_ attach/detach/flush/iflush_buffer ones,
MPI_Buffer_flush/iflush) are written by hand, from the MPI-4.1 text, in
scripts/mpi41_additions.json, in the same format; both runs merge them into
the one description (where the standard's data has a procedure, its entry
wins). --additions merges them into an existing description without
pympistandard."""
import json
import os
import sys

ADDITIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi41_additions.json")
ORIGIN = ("MPI-4.1, converted by scripts/import_mpi_api.py from the MPI Forum's "
          "pympistandard (github.com/mpi-forum/pympistandard, "
          "src/pympistandard/data/apis.json), which describes MPI-4.0; the procedures "
          "MPI-4.1 adds are from the MPI-4.1 text (scripts/mpi41_additions.json)")


def f90_param(q):
    return {"type": q.type, "dims": q.dimensions}


def f08_param(q):
    return {"type": "%s%s" % (q.type, q.type_length), "intent": q.intent,
            "optional": bool(q.optional), "dims": q.name_length,
            "asynchronous": bool(q.asynchronous)}


def convert(proc):
    ps = proc._parseset
    x = proc.express
    out = {"name": ps["name"], "return_kind": ps["return_kind"],
           "deprecated": ps["attributes"]["deprecated"],
           "callback": False,
           "c": str(x.iso_c) if x.iso_c else None,
           "c_large": None, "f90": None, "f08": None, "f08_large": None}
    f90 = {q._parseset["name"]: q for q in (x.f90.parameters if x.f90 else ())}
    f08 = {q._parseset["name"]: q for q in (x.f08.parameters if x.f08 else ())}
    big = x.embiggen if proc.has_embiggenment() else None
    f08l = {q._parseset["name"]: q for q in (big.f08.parameters if big and big.f08 else ())}
    if big and big.iso_c:
        out["c_large"] = str(big.iso_c)
    if x.f90:
        out["f90"] = {"name": x.f90.name, "return_type": x.f90.return_type}
    if x.f08:
        out["f08"] = {"name": x.f08.name, "return_type": x.f08.return_type}
    if big and big.f08:
        out["f08_large"] = {"name": big.f08.name}
    params = []
    for p in ps["parameters"]:
        e = {"name": p["name"], "kind": p["kind"], "dir": p["param_direction"],
             "length": p["length"], "optional": p["optional"],
             "large_only": p["large_only"], "func_type": p["func_type"] or None,
             "c": "c_parameter" not in p["suppress"] and p["kind"] != "VARARGS"}
        if p["name"] in f90:
            e["f90"] = f90_param(f90[p["name"]])
        if p["name"] in f08:
            e["f08"] = f08_param(f08[p["name"]])
        if p["name"] in f08l:
            e["f08_large"] = f08_param(f08l[p["name"]])
        params.append(e)
    out["params"] = params
    return out


def merge_additions(procs):
    """The procedures of scripts/mpi41_additions.json that procs lacks,
    sorted in among the procedures (the callbacks stay last)."""
    with open(ADDITIONS, encoding="utf-8") as fh:
        extra = json.load(fh)
    have = {p["name"] for p in procs}
    plain = [p for p in procs if not p["callback"]] + [p for p in extra if p["name"] not in have]
    plain.sort(key=lambda p: p["name"])
    return plain + [p for p in procs if p["callback"]]


def write(path, procs):
    with open(path, "w", encoding="utf-8") as fh:
        # One procedure a line: diffs of a new version of the data stay readable.
        fh.write('{"origin": %s,\n"procedures": [\n' % json.dumps(ORIGIN))
        fh.write(",\n".join(json.dumps(p, separators=(",", ":")) for p in procs))
        fh.write("\n]}\n")


def main():
    if sys.argv[1] == "--additions":
        with open(sys.argv[2], encoding="utf-8") as fh:
            procs = json.load(fh)["procedures"]
        write(sys.argv[2], merge_additions(procs))
        return
    import pympistandard as std
    std.use_api_version(1)
    procs = [convert(p) for _, p in sorted(std.PROCEDURES.items())]
    # The callbacks' prototypes (MPI_User_function, ...): the abstract
    # interfaces of mpi_f08 and the C typedefs.
    for _, c in sorted(std.CALLBACKS.items()):
        procs.append(dict(convert(c), callback=True))
    write(sys.argv[1], merge_additions(procs))


if __name__ == "__main__":
    main()
