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
  gen_fortran.py f08-module MPI_H DESC CONSTS OUT   mpi_f08_module.f90: `use mpi_f08`
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

# MPI-4.1 gives the large-count functions (MPI_Send_c, ...) no binding in
# mpif.h or `use mpi`; in mpi_f08 they are overloads of the generic names
# (MPI_Send with INTEGER(KIND=MPI_COUNT_KIND) counts): large_overloads().
LARGE_COUNT = re.compile(r"_c$")

# Functions whose C glue is written by hand in fortran/glue_callbacks.c
# (Fortran callbacks need a C trampoline, and attribute values need the
# Fortran view of predefined attributes); the generator still declares
# their interfaces in `use mpi`.
HAND_WRITTEN = {
    "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval", "MPI_Keyval_create",
    "MPI_Comm_get_attr", "MPI_Type_get_attr", "MPI_Win_get_attr", "MPI_Attr_get",
    "MPI_Grequest_start", "MPI_Register_datarep",
}

# Procedures that exist in Fortran only (MPI-4.1 §19.1.17, §19.1.9): no C
# function in mpi.h; their glue is written by hand in fortran/glue_f08.c.
# MPI_F_sync_reg is in `use mpi` and mpi_f08, MPI_Sizeof in mpi_f08 (where
# the descriptor gives the size of any type).
FORTRAN_ONLY = {"MPI_F_sync_reg": ("mpi", "mpi_f08"), "MPI_Sizeof": ("mpi_f08",)}
# (`use mpi` has MPI_SIZEOF as module procedures: sizeof_generic.)

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
    # MPI_Status_f082f and MPI_Status_f2f08 take mpi_f08's status in `use
    # mpi` too: the same integers as the INTEGER status.
    "TYPE(MPI_Status)": "MPI_Fint",
}


# The C types that are int (the handle typedefs of mpi.h, MPI_Session and
# others included as they land): arrays of them pass as INTEGER arrays.
INT_TYPES = {"int", "MPI_Fint"}
# Functions of mpi.h whose binding cannot be generated: name -> why. They
# get none (the build goes on) and the lint test fortran-coverage fails.
SKIPPED = {}


def load(mpi_h, desc):
    funcs = gen_pmpi.functions(mpi_h)
    with open(desc, encoding="utf-8") as fh:
        procs = {p["name"]: p for p in json.load(fh)["procedures"]}
    with open(mpi_h, encoding="utf-8") as fh:
        INT_TYPES.update(re.findall(r"\btypedef\s+int\s+(MPIX?_\w+)\s*;", fh.read()))
    SKIPPED.clear()
    for _, rest, prefix, params in funcs:
        name = prefix + rest
        proc = procs.get(name)
        if proc and proc["f90"] and name not in HAND_WRITTEN:
            try:
                glue_function("int", name, params, proc)
            except Skip as e:
                SKIPPED[name] = str(e)
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
    if p is None or p["f90"] is None or name in SKIPPED:
        return None
    return p


def f90_params(proc):
    return [p for p in proc["params"] if "f90" in p]


def desc_c_params(proc):
    return [p for p in proc["params"] if p["c"] and not p["large_only"]]


# ---- the C glue ------------------------------------------------------------------


def f77_signature(name, proc):
    """The C parameters of pmpi_<name>_: every Fortran argument by
    reference, then gfortran's hidden lengths of the CHARACTER ones."""
    args, hidden = [], []
    for fp in f90_params(proc):
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
    return args, hidden


def arg_names(decls):
    return [re.search(r"(\w+)$", d).group(1) for d in decls]


def glue_function(ret, name, params_text, proc):
    """The C glue of one function: pmpi_<name>_ and its weak alias mpi_<name>_."""
    cps = c_params(params_text)
    dps = desc_c_params(proc)
    if len(cps) != len(dps):
        raise Skip("%s: mpi.h has %d parameters, the description %d" % (name, len(cps), len(dps)))
    fps = f90_params(proc)
    fname = proc["f90"]["name"]
    lname = name.lower()
    pre, post, call = [], [], []
    args, hidden = f77_signature(name, proc)
    ftype_of = {fp["name"]: fp["f90"]["type"] for fp in fps}
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
                # Info keys and values lose their leading blanks too (MPI-4.1 §10).
                conv = "rmpi_f_cstr_info" if name.startswith("MPI_Info_") else "rmpi_f_cstr"
                pre.append("char *%s = %s(%s, %s_len);" % (t, conv, n, n))
            else:
                # C writes up to the bound of the call, or up to what a
                # length argument says (MPI_Info_get's valuelen, ...).
                lenp = [p for p in proc["params"] if p.get("f90") and p["kind"] in ("INFO_VALUE_LENGTH",)
                        or p["name"] in ("valuelen", "buflen", "pset_len")]
                bound = "(size_t)*f_%s" % lenp[0]["name"] if lenp else "0"
                pre.append("char *%s = rmpi_f_outbuf(%s, %s_len, %s);" % (t, n, n, bound))
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
            # (A status in any binding is C's MPI_Status as integers.)
            same = (want == "MPI_Fint" and base in INT_TYPES | {"MPI_Status", "MPI_F08_status"}) or want == base
            if not same or ctype.count("*") > 1:
                raise Skip("%s: parameter %s is %s in C and %s in Fortran" % (name, dp["name"], ctype, ft))
            call.append("(%s)%s" % (ptype, n))
            if kind == "INDEX" and dp["dir"] == "out" and has_requests:
                # Fortran counts request indices from 1 (MPI-4.1 §3.7.5).
                # (Only when the call set them: an error leaves them as they were.)
                ok = "(rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)"
                if dp["length"]:
                    post.append("if %s rmpi_f_indices_out(%s, *f_outcount);" % (ok, n))
                else:
                    post.append("if (%s && *%s >= 0) *%s += 1;" % (ok, n, n))
    sig = ", ".join(args + hidden) or "void"
    fret = proc["f90"]["return_type"]
    out = []
    if fret:
        rt = FTYPE_C[fret]
        out.append("%s p%s_(%s) {" % (rt, lname, sig))
        out.append("  return %s(%s);" % (name, ", ".join(call)))
        out.append("}")
    else:
        # The body, shared by mpif.h/use mpi (pmpi_x_, naming the call as
        # Fortran 77 does) and mpi_f08 (PMPI_X_f08, whose name is C's);
        # inlined into both.
        out.append("static inline __attribute__((always_inline)) void rmpi_f_%s(%s, const char *rmpi_name) {" %
                   (lname, ", ".join(args + hidden)))
        out.extend("  " + s for s in pre)
        # mpi_f08 passes NULL: its names are C's, and the stores vanish.
        out.append("  if (rmpi_name) RMPI_F_NAME(rmpi_name);")
        out.append("  int rc = %s(%s);" % (name, ", ".join(call)))
        out.append("  if (rmpi_name) RMPI_F_NAME(NULL);")
        out.extend("  " + s for s in post)
        if any(fp["name"] == "ierror" for fp in fps):
            out.append("  *f_ierror = rc;")
        else:
            out.append("  (void)rc;  /* MPI_PCONTROL has no IERROR */")
        out.append("}")
        if proc.get("large"):
            return "\n".join(out) + "\n"  # mpi_f08 only: no mpif.h entry point
        out.append("void p%s_(%s) {" % (lname, sig))
        out.append('  rmpi_f_%s(%s, "%s");' % (lname, ", ".join(arg_names(args + hidden)), fname))
        out.append("}")
    out.append("extern __typeof__(p%s_) %s_ __attribute__((weak, alias(\"p%s_\")));" %
               (lname, lname, lname))
    return "\n".join(out) + "\n"


# ---- large counts (mpi_f08 only) -------------------------------------------------
#
# MPI_Send_c and the other large-count functions have no binding in mpif.h
# or `use mpi`; mpi_f08 adds MPI_Send_c_f08ts to the generic MPI_Send, told
# apart by its INTEGER(KIND=MPI_COUNT_KIND) counts. Their glue is made by
# the same code from a view of the description whose Fortran types are
# mpi_f08's large ones.


def large_ftype(t):
    """The mpif.h-style type that stands for an mpi_f08 type in the glue."""
    if t == "TYPE(*), DIMENSION(..)":
        return "<type>"
    if t.startswith("CHARACTER"):
        return "CHARACTER"
    if t == "TYPE(C_PTR)":
        return "INTEGER(KIND=MPI_ADDRESS_KIND)"
    if t.startswith("PROCEDURE"):
        return "EXTERNAL"
    if t.startswith("TYPE(MPI_") and t != "TYPE(MPI_Status)":
        return "INTEGER"
    return t


def large_view(proc, name_c):
    params = []
    for p in proc["params"]:
        q = dict(p, large_only=False)
        q.pop("f90", None)
        q.pop("f08", None)
        if "f08_large" in p:
            q["f90"] = {"type": large_ftype(p["f08_large"]["type"]), "dims": ""}
            q["f08"] = p["f08_large"]
        params.append(q)
    return dict(proc, name=name_c, params=params, large=True, f08_large=None,
                f90={"name": name_c.upper(), "return_type": None},
                f08={"name": proc["f08"]["name"], "return_type": None})


def tkr(p):
    """What Fortran's generic resolution sees of a dummy: type, kind, rank."""
    f = p["f08"]
    t = f["type"]
    kinds = {"INTEGER": ("I", 4), "INTEGER(KIND=MPI_ADDRESS_KIND)": ("I", 8),
             "INTEGER(KIND=MPI_COUNT_KIND)": ("I", 8), "INTEGER(KIND=MPI_OFFSET_KIND)": ("I", 8)}
    return (kinds.get(t, t), f["dims"].count(",") + 1 if f["dims"] else 0)


def large_overloads(funcs, procs):
    """{name of the small function: view of its large one} for the large
    functions of mpi.h that mpi_f08 can overload its generic name with."""
    declared = {prefix + rest: params for _, rest, prefix, params in funcs}
    out = {}
    for name, params in declared.items():
        if not LARGE_COUNT.search(name):
            continue
        small = procs.get(name[:-2])
        if not small or not small.get("f08_large") or not small["f08"] or name[:-2] not in declared:
            continue
        view = large_view(small, name)
        if f08_has_procedure(view) or any(p["kind"].startswith("POLYFUNCTION") for p in view["params"]):
            continue
        # Only where the counts tell the two apart (not when MPI_Aint and
        # MPI_Count are the same kind, as for MPI_Type_get_extent).
        a = [tkr(p) for p in f08_params(small) if not p["f08"]["optional"]]
        b = [tkr(p) for p in f08_params(view) if not p["f08"]["optional"]]
        if len(a) == len(b) and all(x == y or x[0] == "TYPE(*), DIMENSION(..)" for x, y in zip(a, b)):
            continue
        try:
            glue_function("int", name, params, view)
        except Skip as e:
            SKIPPED[name] = str(e)
            continue
        out[name[:-2]] = (view, params)
    return out


def gen_glue(mpi_h, desc, out_path):
    funcs, procs = load(mpi_h, desc)
    parts = ["/* Generated by fortran/gen_fortran.py from include/mpi.h and fortran/api/mpi41.json:",
             " * do not edit. The Fortran (mpif.h, use mpi) entry points of every C function. */",
             '#include "glue.h"', ""]
    for why in SKIPPED.values():
        print("gen_fortran.py: warning: no Fortran binding: " + why, file=sys.stderr)
    for ret, rest, prefix, params in funcs:
        name = prefix + rest
        proc = binding_of(name, procs)
        if proc is None or name in HAND_WRITTEN:
            continue
        parts.append(glue_function(ret, name, params, proc))
    parts.append(gen_f08_glue(funcs, procs))
    parts.append("/* ---- mpi_f08's large-count overloads ---- */")
    for small, (view, params) in sorted(large_overloads(funcs, procs).items()):
        parts.append(glue_function("int", view["name"], params, view))
        parts.append(f08_glue_function(view["name"], view))
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


# MPI_SIZEOF (MPI-4.1 "Deprecated since MPI-4.0": "a generic Fortran
# routine") in mpif.h. An implicit interface cannot do it (the callee would
# not know the type), and §20.1.4 lets mpif.h give any routine an explicit
# one: this one takes TS 29113's assumed type and rank, so one BIND(C)
# procedure (the mpi_f08 one, fortran/glue_f08.c) reads the element size
# from the descriptor, for every type, kind and rank. The statements fit in
# columns 7-72 without continuation (hence the short dummy names, which
# §20.1.5 leaves to mpif.h), so they are valid fixed and free form.
MPIF_SIZEOF = []
for _p in ("", "P"):
    MPIF_SIZEOF += ["      INTERFACE",
                    "      SUBROUTINE %sMPI_SIZEOF(X,S,E) BIND(C,NAME='%sMPI_Sizeof_f08ts')" % (_p, _p),
                    "      USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_INT",
                    "      TYPE(*), DIMENSION(..) :: X",
                    "      INTEGER(C_INT) S, E",
                    "      END SUBROUTINE",
                    "      END INTERFACE"]
assert all(len(_l) <= 72 for _l in MPIF_SIZEOF)


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
    # The bindings take gfortran's 4-byte default INTEGER (C's int): built
    # with -fdefault-integer-8 (which mpifort refuses), a program would pass
    # 8-byte integers. This PARAMETER then divides by zero, a compile-time
    # error naming it, for the programs built without mpifort.
    lines += ["! ringmpi: -fdefault-integer-8 is not supported (8-byte INTEGERs)",
              "      INTEGER RMPI_INTEGER_8_UNSUPPORTED",
              "      PARAMETER (RMPI_INTEGER_8_UNSUPPORTED=(8-KIND(0))/(8-KIND(0)))"]
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
    lines += MPIF_SIZEOF
    out = []
    for line in lines:
        # A longer statement is continued the way both forms read: '&' in
        # column 73 (free form's continuation, past fixed form's statement
        # field) and '&' in column 6 of the next line (fixed form's, and a
        # leading '&' that free form allows).
        while not line.startswith("!") and len(line) > 72:
            out.append(line[:72] + "&")
            line = "     &" + line[72:]
        out.append(line)
    write(out_path, "\n".join(out) + "\n")


# ---- use mpi -----------------------------------------------------------------------


# MPI_SIZEOF in `use mpi` (MPI-4.1 §19.1.9): a generic over the intrinsic
# types and kinds, any rank, answered by storage_size.
SIZEOF_TYPES = ["INTEGER(KIND=%d)" % k for k in (1, 2, 4, 8)] + ["REAL(KIND=%d)" % k for k in (4, 8, 16)] + \
    ["COMPLEX(KIND=%d)" % k for k in (4, 8, 16)] + ["LOGICAL(KIND=%d)" % k for k in (1, 2, 4, 8)] + \
    ["CHARACTER(LEN=*)"]


def sizeof_generic():
    names = ["rmpi_sizeof_%d" % i for i in range(len(SIZEOF_TYPES))]
    out = ["  INTERFACE MPI_SIZEOF", "    MODULE PROCEDURE %s" % ", ".join(names), "  END INTERFACE",
           "  PRIVATE :: %s" % ", ".join(names), "CONTAINS"]
    for n, t in zip(names, SIZEOF_TYPES):
        size = "LEN(x)" if t.startswith("CHARACTER") else "STORAGE_SIZE(x) / 8"
        out += ["  SUBROUTINE %s(x, size, ierror)" % n,
                "    %s, DIMENSION(..), INTENT(IN) :: x" % t,
                "    INTEGER, INTENT(OUT) :: size, ierror",
                "    size = %s" % size,
                "    ierror = MPI_SUCCESS",
                "  END SUBROUTINE"]
    return out


# C's MPI_Status (include/mpi.h), field for field: mpi_f08's status, and
# `use mpi`'s for MPI_Status_f082f / MPI_Status_f2f08.
MPI_STATUS_TYPE = ["  TYPE, BIND(C) :: MPI_Status",
                   "    INTEGER(C_INT) :: MPI_SOURCE, MPI_TAG, MPI_ERROR",
                   "    INTEGER(C_INT) :: rmpi_cancelled",
                   "    INTEGER(C_LONG_LONG) :: rmpi_count",
                   "  END TYPE MPI_Status"]


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
             "  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_INT, C_LONG_LONG",
             "  IMPLICIT NONE",
             "  PUBLIC",
             "  PRIVATE :: C_INT, C_LONG_LONG"] + MPI_STATUS_TYPE
    for d, p in const_decls(consts):
        lines.append("  %s" % d)
        lines.append("  %s" % p)
    for n, block, decl in SPECIAL:
        lines.append("  " + decl)
        lines.append("  COMMON /%s/ %s" % (block.upper(), n))
    for n in PREDEFINED_CALLBACKS:
        lines.append("  EXTERNAL :: %s" % n)
    lines.append("  INTERFACE")
    names = [prefix + rest for _, rest, prefix, _ in funcs]
    names += [n for n, where in FORTRAN_ONLY.items() if "mpi" in where]
    for name in names:
        proc = binding_of(name, procs)
        if proc is None:
            continue
        for pmpi in (False, True):
            lines.extend("    " + s for s in module_interface(proc, pmpi))
    lines.append("  END INTERFACE")
    lines += sizeof_generic()
    lines.append("END MODULE mpi")
    text = []
    for line in lines:
        text.extend(wrap_free(line))
    write(out_path, "\n".join(text) + "\n")


# ---- check -----------------------------------------------------------------------


def check(mpi_h, desc):
    funcs, procs = load(mpi_h, desc)
    large = large_overloads(funcs, procs)  # its failures join SKIPPED
    missing = [why for name, why in SKIPPED.items() if LARGE_COUNT.search(name)]
    for _, rest, prefix, params in funcs:
        name = prefix + rest
        if name in EXEMPT or LARGE_COUNT.search(name):
            continue
        proc = procs.get(name)
        if proc is None:
            missing.append("%s: not in fortran/api/mpi41.json" % name)
        elif proc["f90"] is None:
            # The standard gives it no Fortran binding (the MPI_T_ tool
            # interface, the c2f/f2c conversions).
            continue
        elif name in SKIPPED:
            missing.append(SKIPPED[name])
    if missing:
        print("functions of mpi.h without a Fortran binding:\n  " + "\n  ".join(missing))
        return 1
    print("every function of mpi.h has its Fortran binding (%d functions; %d large-count overloads in mpi_f08)" %
          (len(funcs), len(large)))
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
    elif mode == "f08-module":
        gen_f08_module(argv[2], argv[3], argv[4], argv[5])
    elif mode == "check":
        return check(argv[2], argv[3])
    else:
        sys.exit(__doc__)
    return 0



# ---- mpi_f08 ------------------------------------------------------------------------
#
# Every specific procedure of mpi_f08 whose arguments C can take (all but
# those with procedure arguments) is a BIND(C) interface to a C function of
# the generated glue, PMPI_X_f08 (PMPI_X_f08ts with choice buffers, the
# linker names of MPI-4.1 §19.1.5) and its weak alias MPI_X_f08: a handle
# TYPE(MPI_Comm) is one INTEGER passed by reference, a TYPE(MPI_Status) is
# C's MPI_Status, a choice buffer TYPE(*), DIMENSION(..) and a CHARACTER
# (LEN=*) arrive as C descriptors (ISO_Fortran_binding.h), an absent
# OPTIONAL ierror as NULL. The C function then runs the same body as the
# mpif.h binding. Procedures with procedure arguments (MPI_Op_create, ...)
# cannot be BIND(C): they are external procedures with gfortran's linker
# name for the specific name (mpi_op_create_f08_, which a Fortran tool can
# define), whose C glue (f08_external_glue) runs the mpif.h binding's body:
# its callbacks already have the arguments of mpi_f08's abstract interfaces.

HANDLE_TYPES = {"COMM": "MPI_Comm", "GROUP": "MPI_Group", "DATATYPE": "MPI_Datatype", "OP": "MPI_Op",
                "REQUEST": "MPI_Request", "ERRHANDLER": "MPI_Errhandler", "INFO": "MPI_Info",
                "MESSAGE": "MPI_Message", "WIN": "MPI_Win", "FILE": "MPI_File", "SESSION": "MPI_Session"}
BUFFER_F08 = "TYPE(*), DIMENSION(..)"


def handle_kinds(mpi_h):
    """{kind number: f08 type} from mpi.h's handle encoding (RMPI_KIND_X)."""
    with open(mpi_h, encoding="utf-8") as fh:
        text = fh.read()
    out = {}
    for name, num in re.findall(r"#define RMPI_KIND_(\w+) (\d+)", text):
        if name in HANDLE_TYPES:
            out[int(num)] = HANDLE_TYPES[name]
    return out


def handle_type_of(value, kinds):
    """The f08 type of a predefined handle's value (bit 30 set, generation
    0: include/mpi.h's RMPI_HANDLE), or None for a plain integer."""
    if value <= 0 or not value & 0x40000000 or (value >> 20) & 0x3F:
        return None
    return kinds.get((value >> 26) & 0xF)


def f08_params(proc):
    return [p for p in proc["params"] if "f08" in p]


def f08_has_procedure(proc):
    return any(p["f08"]["type"].startswith("PROCEDURE") for p in f08_params(proc))


def f08_has_buffer(proc):
    return any(p["f08"]["type"] == BUFFER_F08 for p in f08_params(proc))


def f08_specific(proc):
    return proc["name"] + ("_f08ts" if f08_has_buffer(proc) else "_f08")


def f08_functions(funcs, procs):
    """(name, proc) of the functions of mpi.h that have an mpi_f08 binding."""
    out = []
    for _, rest, prefix, _ in funcs:
        name = prefix + rest
        proc = procs.get(name)
        if proc and proc["f08"] and proc["f90"] and name not in EXEMPT and name not in SKIPPED:
            out.append((name, proc))
    out += [(n, procs[n]) for n, where in FORTRAN_ONLY.items() if "mpi_f08" in where]
    return out


def f08_decl(fp, in_callback=False):
    f = fp["f08"]
    t = f["type"]
    if t.startswith("CHARACTER") and not in_callback:
        t = "CHARACTER(LEN=*)"  # a descriptor in C: any length is taken
    attrs = [t]
    if f["optional"]:
        attrs.append("OPTIONAL")
    if f["intent"] and not in_callback:
        attrs.append(f["intent"])
    if f["asynchronous"]:
        attrs.append("ASYNCHRONOUS")
    return "%s :: %s%s" % (", ".join(attrs), fp["name"], f["dims"])


def f08_interface(proc, pmpi):
    """The interface body of one specific procedure: BIND(C) with the
    linker name of MPI-4.1 §20.1.5, except with procedure arguments, which
    BIND(C) cannot take (the callbacks are not interoperable): those are
    external procedures whose linker name is gfortran's for the specific
    name (MPI_Op_create_f08 is mpi_op_create_f08_), as a Fortran tool that
    defines the specific procedure outside a module gets it too."""
    spec = ("P" if pmpi else "") + f08_specific(proc)
    fps = f08_params(proc)
    ret = proc["f08"]["return_type"]
    kw = "FUNCTION" if ret else "SUBROUTINE"
    bind = "" if f08_has_procedure(proc) else ' BIND(C, NAME="%s")' % spec
    lines = ['%s %s(%s)%s' % (kw, spec, ", ".join(p["name"] for p in fps), bind),
             "  IMPORT", "  IMPLICIT NONE"]
    if ret:
        lines.append("  %s :: %s" % (ret, spec))
    lines += ["  " + f08_decl(p) for p in fps]
    lines.append("END %s %s" % (kw, spec))
    return lines


def f08_callback_interface(proc):
    fps = f08_params(proc)
    ret = proc["f08"]["return_type"]
    kw = "FUNCTION" if ret else "SUBROUTINE"
    lines = ["%s %s(%s)" % (kw, proc["name"], ", ".join(p["name"] for p in fps)), "  IMPORT", "  IMPLICIT NONE"]
    if ret:
        lines.append("  %s :: %s" % (ret, proc["name"]))
    lines += ["  " + f08_decl(p, in_callback=True) for p in fps]
    lines.append("END %s %s" % (kw, proc["name"]))
    return lines


# The predefined attribute callbacks of mpi_f08, as Fortran procedures with
# the abstract interfaces (the keyval glue calls them like the program's).
F08_PREDEFINED = """
  SUBROUTINE MPI_{X}_NULL_COPY_FN(old, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    TYPE(MPI_{T}) :: old
    INTEGER :: keyval, ierror
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    LOGICAL :: flag
    IF (.FALSE.) attribute_val_out = attribute_val_in + extra_state + old%MPI_VAL + keyval
    flag = .FALSE.
    ierror = MPI_SUCCESS
  END SUBROUTINE
  SUBROUTINE MPI_{X}_DUP_FN(old, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    TYPE(MPI_{T}) :: old
    INTEGER :: keyval, ierror
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    LOGICAL :: flag
    IF (.FALSE.) attribute_val_out = extra_state + old%MPI_VAL + keyval
    attribute_val_out = attribute_val_in
    flag = .TRUE.
    ierror = MPI_SUCCESS
  END SUBROUTINE
  SUBROUTINE MPI_{X}_NULL_DELETE_FN(obj, keyval, attribute_val, extra_state, ierror)
    TYPE(MPI_{T}) :: obj
    INTEGER :: keyval, ierror
    INTEGER(KIND=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    IF (.FALSE.) ierror = obj%MPI_VAL + keyval + INT(attribute_val + extra_state)
    ierror = MPI_SUCCESS
  END SUBROUTINE
"""


def gen_f08_module(mpi_h, desc, consts_path, out_path):
    funcs, procs = load(mpi_h, desc)
    consts = read_consts(consts_path)
    kinds = handle_kinds(mpi_h)
    types = sorted(HANDLE_TYPES.values())  # MPI_Session too, before sessions exist in C
    L = ["! `use mpi_f08` of ringmpi: generated by fortran/gen_fortran.py; do not edit.",
         "MODULE mpi_f08",
         "  USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR, C_INT, C_LONG_LONG",
         "  IMPLICIT NONE",
         "  PUBLIC"]
    for t in types:
        L += ["  TYPE, BIND(C) :: %s" % t, "    INTEGER(C_INT) :: MPI_VAL", "  END TYPE %s" % t]
    L += MPI_STATUS_TYPE
    for d, p in const_decls(consts):
        n = d.split()[-1]
        value = next((c[2] for c in consts if c[0] == n), None)
        t = handle_type_of(value, kinds) if value is not None and d.startswith("INTEGER ") else None
        if t:
            L.append("  TYPE(%s), PARAMETER :: %s = %s(%d)" % (t, n, t, value))
        else:
            L += ["  " + d, "  " + p]
    specials = {"MPI_STATUS_IGNORE": "TYPE(MPI_Status) :: MPI_STATUS_IGNORE",
                "MPI_STATUSES_IGNORE": "TYPE(MPI_Status) :: MPI_STATUSES_IGNORE(1)"}
    for n, block, decl in SPECIAL:
        L += ["  " + specials.get(n, decl), "  COMMON /%s/ %s" % (block.upper(), n)]
    # Handles compare with == and /= (MPI-4.1 §19.1.2).
    for op, fn in (("==", "eq"), ("/=", "ne")):
        L.append("  INTERFACE OPERATOR(%s)" % op)
        L += ["    MODULE PROCEDURE rmpi_%s_%s" % (fn, t[4:].lower()) for t in types]
        L.append("  END INTERFACE")
    L.append("  PRIVATE :: %s" % ", ".join("rmpi_%s_%s" % (fn, t[4:].lower()) for fn in ("eq", "ne")
                                            for t in types))
    L.append("  ABSTRACT INTERFACE")
    for proc in procs.values():
        if proc["callback"] and proc["f08"] and not proc["name"].startswith("MPI_T_"):
            L += ["    " + s for s in f08_callback_interface(proc)]
    L.append("  END INTERFACE")
    # The C function the glue recognises (glue_callbacks.c), with the f08
    # interface: an external procedure, its address is C's.
    conv = procs.get("MPI_Datarep_conversion_function")
    if conv and conv["f08"]:
        L.append("  INTERFACE")
        L += ["    " + x.replace("MPI_Datarep_conversion_function", "MPI_CONVERSION_FN_NULL")
              for x in f08_callback_interface(conv)]
        L.append("  END INTERFACE")
    large = large_overloads(funcs, procs)
    for name, proc in f08_functions(funcs, procs):
        generic = proc["f08"]["name"]
        for pmpi in (False, True):
            g = ("P" if pmpi else "") + generic
            L.append("  INTERFACE %s" % g)
            L += ["    " + s for s in f08_interface(proc, pmpi)]
            if name in large:
                L += ["    " + s for s in f08_interface(large[name][0], pmpi)]
            L.append("  END INTERFACE")
    L.append("CONTAINS")
    for t in types:
        for op, fn in (("==", "eq"), ("/=", "ne")):
            f = "rmpi_%s_%s" % (fn, t[4:].lower())
            L += ["  ELEMENTAL LOGICAL FUNCTION %s(a, b)" % f,
                  "    TYPE(%s), INTENT(IN) :: a, b" % t,
                  "    %s = a%%MPI_VAL %s b%%MPI_VAL" % (f, op),
                  "  END FUNCTION"]
    for x, t in (("COMM", "Comm"), ("TYPE", "Datatype"), ("WIN", "Win")):
        L += F08_PREDEFINED.replace("{X}", x).replace("{T}", t).strip("\n").split("\n")
    L.append("END MODULE mpi_f08")
    text = []
    for line in L:
        text.extend(wrap_free(line))
    write(out_path, "\n".join(text) + "\n")


# Calls that are done with their buffers when they return: a copy of a
# non-contiguous section may stand in for it. Not the nonblocking and
# persistent ones, the one-sided ones (the origin buffer is read at the
# synchronisation), the split collective I/O ones, attached buffers.
NOT_BLOCKING = re.compile(r"^MPI_(I[a-z]\w*|File_i\w+|\w+_init|\w+_begin|\w+_end|Put|Get|Accumulate|Get_accumulate|"
                          r"Fetch_and_op|Compare_and_swap|Rput|Rget|Raccumulate|Rget_accumulate|Win_\w+|Buffer_\w+)(_c)?$")


def f08_blocking(name):
    return 0 if NOT_BLOCKING.match(name) else 1


def f08_pairs(proc):
    """{buffer name: (count name, datatype name)} for the choice buffers that
    the next two parameters describe (buf, count, datatype)."""
    ps = proc["params"]
    out = {}
    for i, p in enumerate(ps[:-2]):
        if p.get("f08", {}).get("type") != BUFFER_F08:
            continue
        c, t = ps[i + 1], ps[i + 2]
        if ("NUM_ELEM" in c["kind"] and not c["length"] and t["kind"] == "DATATYPE" and not t["length"]):
            out[p["name"]] = (c["name"], t["name"])
    # Only where each buffer has its own: MPI_Allreduce's recvbuf is next to
    # the count and datatype that its sendbuf uses too.
    buffers = [p["name"] for p in ps if p.get("f08", {}).get("type") == BUFFER_F08]
    if any(b not in out for b in buffers):
        return {}
    return out


def f08_glue_function(name, proc):
    lname = name.lower()
    spec = f08_specific(proc)
    fps = f08_params(proc)
    decls = []
    for p in fps:
        t = p["f08"]["type"]
        if t == BUFFER_F08 or t.startswith("CHARACTER"):
            decls.append("CFI_cdesc_t *f_" + p["name"])
        elif p["name"] == "ierror":
            decls.append("MPI_Fint *f_ierror")
        else:
            decls.append("void *f_" + p["name"])
    ret = proc["f08"]["return_type"]
    out = []
    sig = ", ".join(decls) or "void"
    if ret:
        args, hidden = f77_signature(name, proc)
        out.append("%s P%s(%s) {" % (FTYPE_C[ret], spec, sig))
        out.append("  return p%s_(%s);" % (lname, ", ".join("f_" + p["name"] for p in fps)))
        out.append("}")
    else:
        pairs = f08_pairs(proc)
        has_type = any(p["kind"] == "DATATYPE" for p in proc["params"])
        blocking = f08_blocking(name)
        bufs = [p for p in fps if p["f08"]["type"] == BUFFER_F08]
        sections = has_type and bufs  # non-contiguous buffers need work
        slow = []
        if sections:
            # The non-contiguous case, out of the way of the common one.
            slow.append("static __attribute__((noinline, cold)) void rmpi_sections_%s(%s) {" % (lname, sig))
            done = []
            for p in bufs:
                n = p["name"]
                slow.append("  void *b_%s = f_%s->base_addr;" % (n, n))
                slow.append("  struct rmpi_f08_section s_%s = {0};" % n)
            for p in bufs:
                n = p["name"]
                slow.append("  if (!rmpi_f08_contiguous(f_%s)) {" % n)
                if n in pairs:
                    c, t = pairs[n]
                    # (A large-count call's count is an MPI_Count.)
                    large = "_c" if proc.get("large") else ""
                    slow.append('    if (rmpi_f08_section%s(&s_%s, f_%s, f_%s, f_%s, %d, "%s", "%s", f_ierror)) goto done;'
                                % (large, n, n, c, t, blocking, proc["f08"]["name"], n))
                    slow.append("    f_%s = &s_%s.count%s;" % (c, n, large))
                    slow.append("    f_%s = &s_%s.type;" % (t, n))
                elif blocking:
                    slow.append('    if (rmpi_f08_copy_in(&s_%s, f_%s, "%s", "%s", f_ierror)) goto done;' %
                                (n, n, proc["f08"]["name"], n))
                else:
                    slow.append('    rmpi_f08_noncontiguous("%s", "%s", f_ierror);' % (proc["f08"]["name"], n))
                    slow.append("    goto done;")
                slow.append("    b_%s = s_%s.addr;" % (n, n))
                slow.append("  }")
                output = 1 if p["dir"] in ("out", "inout") else 0
                done.append("  if (s_%s.made || s_%s.copy) rmpi_f08_section_done(&s_%s, f_%s, %d);" %
                            (n, n, n, n, output))
        args, hidden = [], []
        for fp in f90_params(proc):
            n = fp["name"]
            t = fp["f08"]["type"]
            if t == BUFFER_F08:
                args.append("b_" + n)
            elif t.startswith("CHARACTER"):
                args.append("(char *)f_%s->base_addr" % n)
                hidden.append("f_%s->elem_len" % n)
            else:
                args.append("f_" + n)
        if name in HAND_WRITTEN:
            the_call = "  p%s_(%s);" % (lname, ", ".join(args + hidden))
        else:
            # mpi_f08's names are C's, but not those of the large-count
            # overloads: MPI_Isend_c is MPI_Isend to the program.
            fname = '"%s"' % proc["f08"]["name"] if proc.get("large") else "NULL"
            the_call = "  rmpi_f_%s(%s, %s);" % (lname, ", ".join(args + hidden), fname)
        if sections:
            slow.append(the_call)
            slow.append("done:")
            slow += done
            slow.append("}")
            out += slow
        out.append("void P%s(%s) {" % (spec, sig))
        if any(p["name"] == "ierror" for p in fps):
            out.append("  MPI_Fint rmpi_ierror;")
            out.append("  if (f_ierror == NULL) f_ierror = &rmpi_ierror;")
        if sections:
            cond = " || ".join("!rmpi_f08_contiguous(f_%s)" % p["name"] for p in bufs)
            out.append("  if (__builtin_expect(%s, 0)) {" % cond)
            out.append("    rmpi_sections_%s(%s);" % (lname, ", ".join("f_" + p["name"] for p in fps)))
            out.append("    return;")
            out.append("  }")
        for p in bufs:
            out.append("  void *b_%s = f_%s->base_addr;" % (p["name"], p["name"]))
        out.append(the_call)
        out.append("}")
    out.append('extern __typeof__(P%s) %s __attribute__((weak, alias("P%s")));' % (spec, spec, spec))
    return "\n".join(out) + "\n"


def gen_f08_glue(funcs, procs):
    parts = ["/* ---- mpi_f08: PMPI_X_f08 / PMPI_X_f08ts and their weak aliases ---- */"]
    for name in sorted(HAND_WRITTEN):
        proc = procs.get(name)
        if proc and proc["f90"]:
            args, hidden = f77_signature(name, proc)
            parts.append("void p%s_(%s);" % (name.lower(), ", ".join(args + hidden)))
    for name, proc in f08_functions(funcs, procs):
        if name in FORTRAN_ONLY:
            continue
        if f08_has_procedure(proc):
            parts.append(f08_external_glue(name, proc))
        else:
            parts.append(f08_glue_function(name, proc))
    return "\n".join(parts)


def f08_external_glue(name, proc):
    """pmpi_x_f08_ (and its weak alias mpi_x_f08_), mpi_f08's specific
    procedure with procedure arguments (f08_interface): gfortran's
    conventions, as the mpif.h binding, whose body it runs; the mpi_f08
    callbacks have the Fortran 77 ones' arguments in memory (a handle type
    is one INTEGER, TYPE(C_PTR), VALUE an address). An absent OPTIONAL
    ierror comes as NULL."""
    if [p["name"] for p in f08_params(proc)] != [p["name"] for p in f90_params(proc)]:
        raise Skip("%s: the mpi_f08 and mpif.h arguments differ" % name)
    args, hidden = f77_signature(name, proc)
    lname = name.lower()
    spec = "p%s_f08_" % lname
    call_args = ", ".join(arg_names(args + hidden))
    out = ["void %s(%s) {" % (spec, ", ".join(args + hidden)),
           "  MPI_Fint rmpi_ierror;",
           "  if (f_ierror == NULL) f_ierror = &rmpi_ierror;"]
    if name in HAND_WRITTEN:
        out.append("  p%s_(%s);" % (lname, call_args))
    else:
        out.append("  rmpi_f_%s(%s, NULL);" % (lname, call_args))
    out.append("}")
    out.append('extern __typeof__(%s) %s_f08_ __attribute__((weak, alias("%s")));' % (spec, lname, spec))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv))
