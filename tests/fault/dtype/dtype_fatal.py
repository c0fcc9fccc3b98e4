"""Bad datatype and op input under MPI_ERRORS_ARE_FATAL (dtype_fatal.c): the
job ends with a non-zero exit status and one line
'ringmpi: rank R: CALL: ... (CLASS): ...' naming the argument, its value and
why; it is neither a crash nor a hang."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, failing rank, call, class, words the message must contain)
CASES = {
    "send_uncommitted": (2, 0, "MPI_Send", "MPI_ERR_TYPE", ["datatype", "not committed"]),
    "recv_freed": (2, 1, "MPI_Recv", "MPI_ERR_TYPE", ["datatype=0x", "not a valid datatype"]),
    "op_on_byte": (1, 0, "MPI_Reduce_local", "MPI_ERR_OP", ["MPI_SUM", "not defined for MPI_BYTE"]),
    "maxloc_on_double": (1, 0, "MPI_Reduce_local", "MPI_ERR_OP", ["MPI_MAXLOC", "MPI_DOUBLE"]),
    "op_on_mixed_struct": (1, 0, "MPI_Reduce_local", "MPI_ERR_OP", ["MPI_SUM", "mixes several basic types"]),
    "negative_count": (1, 0, "MPI_Type_contiguous", "MPI_ERR_COUNT", ["count=-3", "negative"]),
    "negative_blocklength": (2, 0, "MPI_Type_indexed", "MPI_ERR_ARG", ["array_of_blocklengths[1]=-2", "negative"]),
    "null_types": (1, 0, "MPI_Type_create_struct", "MPI_ERR_ARG", ["array_of_types", "NULL"]),
    "bad_struct_member": (1, 0, "MPI_Type_create_struct", "MPI_ERR_TYPE", ["array_of_types[1]=0x3039",
                                                                        "not a valid datatype"]),
    "contents_of_named": (1, 0, "MPI_Type_get_contents", "MPI_ERR_TYPE", ["MPI_INT", "predefined"]),
    "free_predefined": (1, 0, "MPI_Type_free", "MPI_ERR_TYPE", ["MPI_DOUBLE", "cannot be freed"]),
    "unpack_short": (1, 0, "MPI_Unpack", "MPI_ERR_TRUNCATE", ["16 bytes", "insize=8"]),
    "subarray_start": (1, 0, "MPI_Type_create_subarray", "MPI_ERR_ARG", ["array_of_starts[1]=3", "0..2"]),
    "op_free_predefined": (1, 0, "MPI_Op_free", "MPI_ERR_OP", ["MPI_MAX", "cannot be freed"]),
}



if __name__ == "__main__":
    sys.exit(fl.report(fl.check_fatal_cases(fl.fatal_args(), CASES)))
