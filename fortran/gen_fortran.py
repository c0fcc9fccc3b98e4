#!/usr/bin/env python3
"""The Fortran bindings of ringmpi, generated from two inputs:

  include/mpi.h            which functions exist (and their C types): a
                           function gets a Fortran binding when mpi.h
                           declares it, so new C functions light up here
  fortran/api/mpi41.json   what the standard says about each function
                           (scripts/import_mpi_api.py made it from the MPI
                           Forum's data): each parameter's kind, direction,
                           array length, and its type in Fortran

Modes (run by fortran/meson.build; OUT is written):

  gen_fortran.py consts-c MPI_H OUT.c          a C program printing every integer
                                               constant of mpi.h ("NAME TYPE VALUE")
  gen_fortran.py glue MPI_H DESC OUT.c         the C glue: mpi_x_ / pmpi_x_ for every
                                               function with a Fortran binding
  gen_fortran.py mpif MPI_H DESC CONSTS OUT    mpif.h (fixed and free form)
  gen_fortran.py module MPI_H DESC CONSTS OUT  mpi_module.f90: `use mpi`
  gen_fortran.py check MPI_H DESC              exit 1 when a function of mpi.h has no
                                               Fortran binding and is not exempt
                                               (the lint test fortran-coverage)

docs/design/fortran.md explains the conventions (gfortran's name mangling,
hidden CHARACTER lengths, LOGICAL values, the special constants)."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import gen_pmpi  # noqa: E402  (the one parser of mpi.h's prototypes)

# Functions of mpi.h that have no Fortran binding, and why. Everything else
# must get one (check mode).
EXEMPT = {
    "MPIX_Query_counter": "a ringmpi extension of the C API only",
    "MPI_Errhandler_create": "removed in MPI-3.0; not in MPI-4.1's description",
    "MPI_Errhandler_set": "removed in MPI-3.0; not in MPI-4.1's description",
    "MPI_Errhandler_get": "removed in MPI-3.0; not in MPI-4.1's description",
}

# Functions whose C glue is written by hand in fortran/glue_callbacks.c
# (Fortran callbacks need a C trampoline, and attribute values need the
# Fortran view of predefined attributes); the generator still declares
# their interfaces in `use mpi`.
HAND_WRITTEN = {
    "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval", "MPI_Keyval_create",
    "MPI_Comm_get_attr", "MPI_Type_get_attr", "MPI_Win_get_attr", "MPI_Attr_get",
    "MPI_Grequest_start", "MPI_Register_datarep",
}

# The Fortran-callable predefined callbacks (MPI-4.1 §7.7.2, §18.1),
# defined by fortran/glue_callbacks.c; declared EXTERNAL in mpif.h/use mpi.
PREDEFINED_CALLBACKS = [
    "MPI_COMM_NULL_COPY_FN", "MPI_COMM_DUP_FN", "MPI_COMM_NULL_DELETE_FN",
    "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_DUP_FN", "MPI_TYPE_NULL_DELETE_FN",
    "MPI_WIN_NULL_COPY_FN", "MPI_WIN_DUP_FN", "MPI_WIN_NULL_DELETE_FN",
    "MPI_NULL_COPY_FN", "MPI_DUP_FN", "MPI_NULL_DELETE_FN",
    "MPI_CONVERSION_FN_NULL",
]

# The special constants recognised by address (common blocks, defined in
# C by fortran/glue_runtime.c): name, common block, Fortran declaration.
SPECIAL = [
    ("MPI_BOTTOM", "mpi_fortran_bottom", "INTEGER MPI_BOTTOM"),
    ("MPI_IN_PLACE", "mpi_fortran_in_place", "INTEGER MPI_IN_PLACE"),
    ("MPI_STATUS_IGNORE", "mpi_fortran_status_ignore", "INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)"),
    ("MPI_STATUSES_IGNORE", "mpi_fortran_statuses_ignore",
     "INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)"),
    ("MPI_ERRCODES_IGNORE", "mpi_fortran_errcodes_ignore", "INTEGER MPI_ERRCODES_IGNORE(1)"),
    ("MPI_UNWEIGHTED", "mpi_fortran_unweighted", "INTEGER MPI_UNWEIGHTED(1)"),
    ("MPI_WEIGHTS_EMPTY", "mpi_fortran_weights_empty", "INTEGER MPI_WEIGHTS_EMPTY(1)"),
    ("MPI_ARGV_NULL", "mpi_fortran_argv_null", "CHARACTER*1 MPI_ARGV_NULL(1)"),
    ("MPI_ARGVS_NULL", "mpi_fortran_argvs_null", "CHARACTER*1 MPI_ARGVS_NULL(1,1)"),
]

# Sizes of the Fortran kinds as C types (gfortran on LP64).
FTYPE_C = {
    "INTEGER": "MPI_Fint",
    "LOGICAL": "MPI_Fint",
    "INTEGER(KIND=MPI_ADDRESS_KIND)": "MPI_Aint",
    "INTEGER(KIND=MPI_OFFSET_KIND)": "MPI_Offset",
    "INTEGER(KIND=MPI_COUNT_KIND)": "MPI_Count",
    "DOUBLE PRECISION": "double",
}


def load(mpi_h, desc):
    funcs = gen_pmpi.functions(mpi_h)
    with open(desc, encoding="utf-8") as fh:
        procs = {p["name"]: p for p in json.load(fh)["procedures"]}
    return funcs, procs


# ---- C parameters -------------------------------------------------------------

CPARAM = re.compile(r"^(?P<type>.*?)(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?P<arr>(\[[^\]]*\]\s*)*)$")


def c_params(text):
    """[(type as written, name, array suffix)] of one prototype's parameter list."""
    out = []
    for p in gen_pmpi.split_params(text):
        if p in ("void", "...", ""):
            continue
        m = CPARAM.match(p)
        out.append((m.group("type").strip(), m.group("name"), m.group("arr").replace(" ", "")))
    return out


def c_pointer_type(ctype, arr):
    """The type of the value passed for a parameter `ctype name arr`."""
    if not arr:
        return ctype
    if arr == "[]":
        return ctype + " *"
    # int ranges[][3] -> int (*)[3]
    return "%s (*)%s" % (ctype, arr[2:])


def is_pointer(ctype, arr):
    return bool(arr) or "*" in ctype


class Skip(Exception):
    pass


def binding_of(name, procs):
    p = procs.get(name)
    if p is None or p["f90"] is None:
        return None
    return p


def f90_params(proc):
    return [p for p in proc["params"] if "f90" in p]


def desc_c_params(proc):
    return [p for p in proc["params"] if p["c"] and not p["large_only"]]


# ---- the C glue ------------------------------------------------------------------


def glue_function(ret, name, params_text, proc):
    """The C glue of one function: pmpi_<name>_ and its weak alias mpi_<name>_."""
    cps = c_params(params_text)
    dps = desc_c_params(proc)
    if len(cps) != len(dps):
        raise Skip("%s: mpi.h has %d parameters, the description %d" % (name, len(cps), len(dps)))
    fps = f90_params(proc)
    fname = proc["f90"]["name"]
    lname = name.lower()
    args, hidden, pre, post, call = [], [], [], [], []
    ftype_of = {}
    for fp in fps:
        ft = fp["f90"]["type"]
        n = "f_" + fp["name"]
        if ft in ("<type>", "<TYPE>"):
            args.append("void *" + n)
        elif ft.startswith("CHARACTER"):
            args.append("char *" + n)
            hidden.append("size_t %s_len" % n)
        elif ft == "EXTERNAL":
            args.append("rmpi_f_proc " + n)
        elif ft in FTYPE_C:
            args.append("%s *%s" % (FTYPE_C[ft], n))
        else:
            raise Skip("%s: Fortran type %s of %s" % (name, ft, fp["name"]))
        ftype_of[fp["name"]] = ft
    has_requests = any(dp["name"] == "array_of_requests" for dp in proc["params"])
    for (ctype, cname, arr), dp in zip(cps, dps):
        n = "f_" + dp["name"]
        kind = dp["kind"]
        ptype = c_pointer_type(ctype, arr)
        if dp["name"] not in ftype_of:
            # Not in Fortran (MPI_Init's argc and argv): C's "none".
            call.append("NULL" if is_pointer(ctype, arr) else "0")
            continue
        ft = ftype_of[dp["name"]]
        if kind in ("BUFFER", "C_BUFFER2"):
            call.append("rmpi_f_addr(%s)" % n)
        elif kind == "STRING":
            t = "s_" + dp["name"]
            if dp["dir"] == "in":
                pre.append("char *%s = rmpi_f_cstr(%s, %s_len);" % (t, n, n))
            else:
                pre.append("char *%s = rmpi_f_outbuf(%s, %s_len);" % (t, n, n))
                post.append("rmpi_f_padout(%s, %s_len, %s);" % (n, n, t))
            post.append("free(%s);" % t)
            call.append(t)
        elif kind == "STRING_ARRAY":
            t = "a_" + dp["name"]
            if dp["name"] == "array_of_commands":
                pre.append("char **%s = rmpi_f_strings(%s, %s_len, *f_count);" % (t, n, n))
            elif dp["length"] in (None, "*"):
                pre.append("char **%s = rmpi_f_argv(%s, %s_len);" % (t, n, n))
            else:
                pre.append("char **%s = rmpi_f_strings(%s, %s_len, *f_%s);" % (t, n, n, dp["length"]))
            post.append("rmpi_f_free_strings(%s);" % t)
            call.append(t)
        elif kind == "STRING_2DARRAY":
            t = "a_" + dp["name"]
            length = dp["length"] if isinstance(dp["length"], str) else dp["length"][0]
            pre.append("char ***%s = rmpi_f_argvs(%s, %s_len, *f_%s);" % (t, n, n, length))
            post.append("rmpi_f_free_argvs(%s, *f_%s);" % (t, length))
            call.append(t)
        elif kind in ("STATUS", "F90_STATUS"):
            call.append("(%s)rmpi_f_status(%s)" % (ptype, n))
        elif kind == "WEIGHT":
            call.append("(%s)rmpi_f_weights(%s)" % (ptype, n))
        elif dp["name"] == "array_of_errcodes":
            call.append("(%s)rmpi_f_errcodes(%s)" % (ptype, n))
        elif kind in ("FUNCTION", "POLYFUNCTION", "FUNCTION_SMALL"):
            # The Fortran procedure is called with C's arguments, all of
            # them pointers or ints passed by reference: the same ABI
            # (MPI_User_function, the error handler functions).
            call.append("(%s)%s" % (ptype, n))
        elif kind in ("ATTRIBUTE_VAL", "ATTRIBUTE_VAL_10") and dp["dir"] == "in":
            call.append("(void *)(MPI_Aint)*%s" % n)
        elif kind == "C_BUFFER":
            call.append("(void *)%s" % n)
        elif kind == "LOGICAL" and not is_pointer(ctype, arr):
            call.append("(*%s != 0)" % n)
        elif kind == "LOGICAL" and dp["dir"] in ("out", "inout") and not dp["length"]:
            call.append(n)
            post.append("*%s = (*%s != 0);" % (n, n))
        elif not is_pointer(ctype, arr):
            call.append("(%s)*%s" % (ctype, n))
        else:
            # A pointer or array of the same type in C and Fortran.
            base = ctype.replace("const", "").replace("*", "").strip()
            want = FTYPE_C.get(ft)
            same = (want == "MPI_Fint" and base in ("int", "MPI_Comm", "MPI_Group", "MPI_Datatype", "MPI_Op",
                                                   "MPI_Request", "MPI_Errhandler", "MPI_Info", "MPI_Message",
                                                   "MPI_Win", "MPI_File", "MPI_Fint")) or want == base
            if not same or ctype.count("*") > 1:
                raise Skip("%s: parameter %s is %s in C and %s in Fortran" % (name, dp["name"], ctype, ft))
            call.append("(%s)%s" % (ptype, n))
            if kind == "INDEX" and dp["dir"] == "out" and has_requests:
                # Fortran counts request indices from 1 (MPI-4.1 §3.7.5).
                if dp["length"]:
                    post.append("rmpi_f_indices_out(%s, *f_outcount);" % n)
                else:
                    post.append("if (*%s >= 0) *%s += 1;" % (n, n))
    sig = ", ".join(args + hidden) or "void"
    fret = proc["f90"]["return_type"]
    out = []
    if fret:
        rt = FTYPE_C[fret]
        out.append("%s p%s_(%s) {" % (rt, lname, sig))
        out.append("  return %s(%s);" % (name, ", ".join(call)))
        out.append("}")
    else:
        out.append("void p%s_(%s) {" % (lname, sig))
        out.extend("  " + s for s in pre)
        out.append('  RMPI_F_NAME("%s");' % fname)
        out.append("  int rc = %s(%s);" % (name, ", ".join(call)))
        out.append("  RMPI_F_NAME(NULL);")
        out.extend("  " + s for s in post)
        if any(fp["name"] == "ierror" for fp in fps):
            out.append("  *f_ierror = rc;")
        else:
            out.append("  (void)rc;  /* MPI_PCONTROL has no IERROR */")
        out.append("}")
    out.append("extern __typeof__(p%s_) %s_ __attribute__((weak, alias(\"p%s_\")));" %
               (lname, lname, lname))
    return "\n".join(out) + "\n"


def gen_glue(mpi_h, desc, out_path):
    funcs, procs = load(mpi_h, desc)
    parts = ["/* Generated by fortran/gen_fortran.py from include/mpi.h and fortran/api/mpi41.json:",
             " * do not edit. The Fortran (mpif.h, use mpi) entry points of every C function. */",
             '#include "glue.h"', ""]
    errors = []
    for ret, rest, prefix, params in funcs:
        name = prefix + rest
        proc = binding_of(name, procs)
        if proc is None or name in HAND_WRITTEN:
            continue
        try:
            parts.append(glue_function(ret, name, params, proc))
        except Skip as e:
            errors.append(str(e))
    if errors:
        sys.exit("gen_fortran.py glue: no binding can be generated:\n  " + "\n  ".join(errors))
    write(out_path, "\n".join(parts))


def write(path, text):
    # Unchanged output keeps its time stamp (no rebuild of what depends on it).
    try:
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


# ---- constants -------------------------------------------------------------------

DEFINE = re.compile(r"^\s*#\s*define\s+(MPIX?_[A-Za-z0-9_]+)\s+\S", re.M)


def constant_names(mpi_h):
    with open(mpi_h, encoding="utf-8") as fh:
        text = fh.read()
    names = []
    for n in DEFINE.findall(text):
        # C-only: the Fortran status layout as seen from C, the tool interface.
        if n.startswith(("MPI_F_", "MPI_T_", "MPI_F08_")) or n in names:
            continue
        names.append(n)
    return names


def gen_consts_c(mpi_h, out_path):
    lines = ["/* Generated by fortran/gen_fortran.py: prints the integer constants of mpi.h",
             " * as NAME TYPE VALUE (TYPE i: int, l: 64-bit); pointers are not printed. */",
             "#include <stdio.h>", "#include <mpi.h>",
             "#define RMPI_KIND(x) _Generic((x), int: 'i', unsigned: 'i', long: 'l', long long: 'l', "
             "default: 0)",
             "#define RMPI_P(x) _Generic((x), int: (long long)(x), unsigned: (long long)(x), "
             "long: (long long)(x), long long: (long long)(x), default: 0LL)",
             "int main(void) {"]
    for n in constant_names(mpi_h):
        lines.append("#ifdef %s" % n)
        lines.append('  if (RMPI_KIND(%s)) printf("%s %%c %%lld\\n", RMPI_KIND(%s), RMPI_P(%s));' % (n, n, n, n))
        lines.append("#endif")
    lines += ['  printf("MPI_ADDRESS_KIND k %zu\\n", sizeof(MPI_Aint));',
              '  printf("MPI_OFFSET_KIND k %zu\\n", sizeof(MPI_Offset));',
              '  printf("MPI_COUNT_KIND k %zu\\n", sizeof(MPI_Count));',
              '  printf("MPI_INTEGER_KIND k %zu\\n", sizeof(MPI_Fint));',
              '  printf("MPI_STATUS_SIZE i %d\\n", MPI_F_STATUS_SIZE);',
              '  printf("MPI_SOURCE i %d\\n", MPI_F_SOURCE + 1);',
              '  printf("MPI_TAG i %d\\n", MPI_F_TAG + 1);',
              '  printf("MPI_ERROR i %d\\n", MPI_F_ERROR + 1);',
              "  return 0;", "}", ""]
    write(out_path, "\n".join(lines))


def read_consts(path):
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            n, t, v = line.split()
            out.append((n, t, int(v)))
    return out


def const_decls(consts):
    """Fortran declarations of the constants: [(declaration, parameter)] lines,
    the kinds first (the other declarations use them)."""
    kinds = [c for c in consts if c[1] == "k"]
    rest = [c for c in consts if c[1] != "k"]
    out = []
    for n, _, v in kinds:
        out.append(("INTEGER %s" % n, "PARAMETER (%s=%d)" % (n, v)))
    for n, t, v in rest:
        if t == "i":
            out.append(("INTEGER %s" % n, "PARAMETER (%s=%d)" % (n, v)))
        else:
            out.append(("INTEGER*8 %s" % n, "PARAMETER (%s=%d_8)" % (n, v)))
    # The compile-time facts of the Fortran bindings (MPI-4.1 §19.1.1):
    # mpif.h and `use mpi` pass choice buffers by address only.
    for n in ("MPI_SUBARRAYS_SUPPORTED", "MPI_ASYNC_PROTECTS_NONBLOCKING"):
        out.append(("LOGICAL %s" % n, "PARAMETER (%s=.FALSE.)" % n))
    return out


def function_decls(funcs, procs):
    """(type, NAME) of the functions (not subroutines) with a Fortran binding."""
    out = []
    for _, rest, prefix, _ in funcs:
        proc = binding_of(prefix + rest, procs)
        if proc and proc["f90"]["return_type"]:
            out.append((proc["f90"]["return_type"], proc["f90"]["name"]))
    return out


def gen_mpif(mpi_h, desc, consts_path, out_path):
    funcs, procs = load(mpi_h, desc)
    consts = read_consts(consts_path)
    # Valid as fixed form (statements from column 7, at most 72 columns) and
    # as free form, so both kinds of source can include it.
    lines = ["! mpif.h of ringmpi: generated by fortran/gen_fortran.py; do not edit.",
             "! Constants have the values of mpi.h's; the special constants",
             "! (MPI_BOTTOM, MPI_STATUS_IGNORE, ...) are common blocks whose",
             "! addresses the library recognises."]
    for d, p in const_decls(consts):
        lines.append("      " + d)
        lines.append("      " + p)
    for n, block, decl in SPECIAL:
        lines.append("      " + decl)
        lines.append("      COMMON /%s/ %s" % (block.upper(), n))
    for t, n in function_decls(funcs, procs):
        lines.append("      %s %s" % (t, n))
        lines.append("      EXTERNAL %s" % n)
        lines.append("      %s P%s" % (t, n))
        lines.append("      EXTERNAL P%s" % n)
    for n in PREDEFINED_CALLBACKS:
        lines.append("      EXTERNAL %s" % n)
    for line in lines:
        if not line.startswith("!") and len(line) > 72:
            sys.exit("gen_fortran.py mpif: line longer than 72 columns: " + line)
    write(out_path, "\n".join(lines) + "\n")


# ---- use mpi -----------------------------------------------------------------------


def f90_decl(fp):
    ft = fp["f90"]["type"]
    dims = fp["f90"]["dims"]
    n = fp["name"]
    if ft in ("<type>", "<TYPE>"):
        # Any type, kind and rank (gfortran's way to say it, as MPICH's and
        # Open MPI's `use mpi` do).
        return ["!GCC$ ATTRIBUTES NO_ARG_CHECK :: %s" % n, "TYPE(*), DIMENSION(*) :: %s" % n]
    if ft.startswith("CHARACTER"):
        return ["CHARACTER(LEN=*) :: %s%s" % (n, dims)]
    if ft == "EXTERNAL":
        return ["EXTERNAL :: %s" % n]
    return ["%s :: %s%s" % (ft, n, dims)]


def module_interface(proc, pmpi):
    f90 = proc["f90"]
    name = ("P" if pmpi else "") + f90["name"]
    fps = f90_params(proc)
    names = ", ".join(fp["name"] for fp in fps)
    lines = []
    kw = "FUNCTION" if f90["return_type"] else "SUBROUTINE"
    lines.append("%s %s(%s)" % (kw, name, names))
    lines.append("  IMPORT")
    lines.append("  IMPLICIT NONE")
    if f90["return_type"]:
        lines.append("  %s :: %s" % (f90["return_type"], name))
    for fp in fps:
        lines.extend("  " + s for s in f90_decl(fp))
    lines.append("END %s %s" % (kw, name))
    return lines


def wrap_free(line, width=130):
    """Free-form continuation of a long line."""
    if len(line) <= width:
        return [line]
    out = []
    while len(line) > width:
        cut = line.rfind(",", 0, width - 2) + 1
        out.append(line[:cut] + " &")
        line = "    & " + line[cut:].lstrip()
    out.append(line)
    return out


def gen_module(mpi_h, desc, consts_path, out_path):
    funcs, procs = load(mpi_h, desc)
    consts = read_consts(consts_path)
    lines = ["! `use mpi` of ringmpi: generated by fortran/gen_fortran.py; do not edit.",
             "MODULE mpi",
             "  IMPLICIT NONE",
             "  PUBLIC"]
    for d, p in const_decls(consts):
        lines.append("  %s" % d)
        lines.append("  %s" % p)
    for n, block, decl in SPECIAL:
        lines.append("  " + decl)
        lines.append("  COMMON /%s/ %s" % (block.upper(), n))
    for n in PREDEFINED_CALLBACKS:
        lines.append("  EXTERNAL :: %s" % n)
    lines.append("  INTERFACE")
    for _, rest, prefix, _ in funcs:
        proc = binding_of(prefix + rest, procs)
        if proc is None:
            continue
        for pmpi in (False, True):
            lines.extend("    " + s for s in module_interface(proc, pmpi))
    lines.append("  END INTERFACE")
    lines.append("END MODULE mpi")
    text = []
    for line in lines:
        text.extend(wrap_free(line))
    write(out_path, "\n".join(text) + "\n")


# ---- check -----------------------------------------------------------------------


def check(mpi_h, desc):
    funcs, procs = load(mpi_h, desc)
    missing = []
    for _, rest, prefix, params in funcs:
        name = prefix + rest
        if name in EXEMPT:
            continue
        proc = procs.get(name)
        if proc is None:
            missing.append("%s: not in fortran/api/mpi41.json" % name)
        elif proc["f90"] is None:
            # The standard gives it no Fortran binding (the MPI_T_ tool
            # interface, the c2f/f2c conversions).
            continue
        elif name not in HAND_WRITTEN:
            try:
                glue_function("int", name, params, proc)
            except Skip as e:
                missing.append(str(e))
    if missing:
        print("functions of mpi.h without a Fortran binding:\n  " + "\n  ".join(missing))
        return 1
    print("every function of mpi.h has its Fortran binding (%d functions)" % len(funcs))
    return 0


def main(argv):
    mode = argv[1]
    if mode == "consts-c":
        gen_consts_c(argv[2], argv[3])
    elif mode == "glue":
        gen_glue(argv[2], argv[3], argv[4])
    elif mode == "mpif":
        gen_mpif(argv[2], argv[3], argv[4], argv[5])
    elif mode == "module":
        gen_module(argv[2], argv[3], argv[4], argv[5])
    elif mode == "check":
        return check(argv[2], argv[3])
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
