"""Bad input to the group calls under the default MPI_ERRORS_ARE_FATAL: the
job ends with a non-zero status and a line 'ringmpi: rank R: MPI_Group_x:
... (MPI_ERR_CLASS): <argument, value, why>' (group_bad.c)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, rank that errs (None: every rank does), call, class, words the
# message must contain)
CASES = {
    "null_group_size": (2, None, "MPI_Group_size", "MPI_ERR_GROUP", ["argument group is MPI_GROUP_NULL"]),
    "freed_group": (1, None, "MPI_Group_rank", "MPI_ERR_GROUP", ["argument group=0x", "not a valid group"]),
    "incl_out_of_range": (3, None, "MPI_Group_incl", "MPI_ERR_RANK", ["ranks[1]=3", "valid ranks are 0..2"]),
    "incl_repeat": (2, None, "MPI_Group_incl", "MPI_ERR_RANK", ["ranks[2]=1 repeats ranks[0]"]),
    "excl_negative": (2, None, "MPI_Group_excl", "MPI_ERR_RANK", ["ranks[0]=-1", "not a rank of the group"]),
    "range_zero_stride": (2, None, "MPI_Group_range_incl", "MPI_ERR_ARG", ["ranges[0]={0, 1, 0} has stride 0"]),
    "range_reaches_out": (3, None, "MPI_Group_range_excl", "MPI_ERR_RANK", ["ranges[0]={0, 4, 2}", "reaches rank 4"]),
    "range_backwards": (3, None, "MPI_Group_range_incl", "MPI_ERR_ARG", ["ranges[0]={2, 0, 1}", "negative stride"]),
    "range_overlap": (4, None, "MPI_Group_range_incl", "MPI_ERR_RANK",
                      ["rank 0 is named by both ranges[0] and ranges[1]"]),
    "translate_bad_rank": (2, None, "MPI_Group_translate_ranks", "MPI_ERR_RANK", ["ranks1[0]=4", "group1"]),
    "negative_n": (1, None, "MPI_Group_incl", "MPI_ERR_ARG", ["argument n=-1 is negative"]),
    "null_newgroup": (1, None, "MPI_Group_union", "MPI_ERR_ARG", ["argument newgroup is NULL"]),
    "free_null": (2, None, "MPI_Group_free", "MPI_ERR_GROUP", ["MPI_GROUP_NULL"]),
    "comm_group_null": (1, None, "MPI_Comm_group", "MPI_ERR_COMM", ["MPI_COMM_NULL"]),
    "rank1_only": (4, 1, "MPI_Group_incl", "MPI_ERR_RANK", ["ranks[0]=9"]),
}



if __name__ == "__main__":
    sys.exit(fl.report(fl.check_fatal_cases(fl.fatal_args(), CASES)))
