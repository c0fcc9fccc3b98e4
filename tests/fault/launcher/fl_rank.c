/* A rank that does what the fault tests tell it to, so one program covers
 * every launcher scenario. The script comes from the environment variable
 * FL_SPEC, leaving argv free for the argument tests:
 *
 *   FL_SPEC="R:act,act,...;R:act,..."   R = a rank number or * (the others)
 *
 * MPI_Init runs first unless the first action is noinit. Actions:
 *   pidfile=PATH  append "PID <rank> <pid>" to PATH        barrier   finalize
 *   recv          MPI_Recv from MPI_ANY_SOURCE (nobody sends: blocks for good)
 *   sleep=S       sleep S seconds (fractions allowed)      segv      spin
 *   exit=N        exit(N) at once                           abort=N   fatal
 *   lines=N       N numbered lines on stdout               bytes=N   N bytes of lines
 *   partial=T     T on stdout without a newline             err=T     T on stderr
 *   args          each argv element as "ARG <rank> <i> [<text>]"
 *   env=VAR       "ENV <rank> VAR=<value>" or "ENV <rank> VAR unset"
 *   stdin         copy stdin to stdout as "IN <rank> <line>", then "EOF <rank> <bytes>"
 *   termfile=PATH on SIGTERM append "TERM <rank>" to PATH and exit 0
 *   ignoreterm    ignore SIGTERM
 *   child=PATH    fork a sleeping grandchild, append "CHILD <rank> <pid>" to PATH
 *   cpus          "CPUS <rank> <Cpus_allowed_list>"
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>

static int rank = -1;
static const char *term_path;

static void append_line(const char *path, const char *line) {
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) { perror(path); exit(90); }
  if (write(fd, line, strlen(line)) < 0) exit(91);
  close(fd);
}

static void on_term(int sig) {
  (void)sig;
  char line[64];
  snprintf(line, sizeof line, "TERM %d\n", rank);
  append_line(term_path, line);
  _exit(0);
}

static void sleep_for(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {}
}

/* The action list for this rank: its own entry, else the '*' entry. */
static char *spec_for(const char *spec, int r) {
  static char found[4096];
  char *copy = strdup(spec), *save = NULL, *any = NULL, *mine = NULL;
  for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
    char *colon = strchr(e, ':');
    if (!colon) continue;
    *colon = '\0';
    if (strcmp(e, "*") == 0) any = colon + 1;
    else if (atoi(e) == r) mine = colon + 1;
  }
  snprintf(found, sizeof found, "%s", mine ? mine : any ? any : "finalize");
  free(copy);
  return found;
}

static void act(const char *a, int argc, char **argv) {
  const char *eq = strchr(a, '=');
  const char *val = eq ? eq + 1 : "";
  char line[512];
#define IS(name) (strncmp(a, name, strlen(name)) == 0 && (a[strlen(name)] == '\0' || a[strlen(name)] == '='))
  if (IS("noinit")) {
  } else if (IS("pidfile")) {
    snprintf(line, sizeof line, "PID %d %d\n", rank, (int)getpid());
    append_line(val, line);
  } else if (IS("barrier")) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (IS("recv")) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (IS("finalize")) {
    MPI_Finalize();
  } else if (IS("sleep")) {
    sleep_for(atof(val));
  } else if (IS("segv")) {
    /* A real fault the compiler cannot see coming (a write to a read-only
     * page, not undefined behaviour), and past any sanitizer's handler. */
    volatile char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fflush(stdout);
    signal(SIGSEGV, SIG_DFL);
    page[0] = 1;
  } else if (IS("spin")) {
    for (volatile unsigned long i = 0;; ++i) {}
  } else if (IS("exit")) {
    fflush(stdout);
    exit(atoi(val));
  } else if (IS("abort")) {
    MPI_Abort(MPI_COMM_WORLD, atoi(val));
  } else if (IS("fatal")) {
    int r;
    MPI_Comm_rank(MPI_COMM_NULL, &r);
  } else if (IS("lines")) {
    for (long i = 0, n = atol(val); i < n; ++i)
      printf("rank %d line %ld abcdefghijklmnopqrstuvwxyz0123456789 end\n", rank, i);
  } else if (IS("bytes")) {
    static char chunk[1000];
    memset(chunk, 'a' + rank % 26, sizeof chunk - 1);
    chunk[sizeof chunk - 1] = '\n';
    for (long left = atol(val); left > 0; left -= (long)sizeof chunk)
      fwrite(chunk, 1, left < (long)sizeof chunk ? (size_t)left : sizeof chunk, stdout);
  } else if (IS("partial")) {
    fputs(val, stdout);
  } else if (IS("err")) {
    fprintf(stderr, "%s\n", val);
  } else if (IS("args")) {
    for (int i = 0; i < argc; ++i) printf("ARG %d %d [%s]\n", rank, i, argv[i]);
  } else if (IS("env")) {
    const char *v = getenv(val);
    if (v) printf("ENV %d %s=%s\n", rank, val, v);
    else printf("ENV %d %s unset\n", rank, val);
  } else if (IS("stdin")) {
    char buf[4096];
    long total = 0;
    while (fgets(buf, sizeof buf, stdin)) {
      total += (long)strlen(buf);
      buf[strcspn(buf, "\n")] = '\0';
      printf("IN %d %s\n", rank, buf);
    }
    printf("EOF %d %ld\n", rank, total);
  } else if (IS("termfile")) {
    term_path = strdup(val);
    signal(SIGTERM, on_term);
  } else if (IS("ignoreterm")) {
    signal(SIGTERM, SIG_IGN);
  } else if (IS("child")) {
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
      for (;;) pause();
    }
    snprintf(line, sizeof line, "CHILD %d %d\n", rank, (int)c);
    append_line(val, line);
  } else if (IS("cpus")) {
    FILE *f = fopen("/proc/self/status", "r");
    char l[512];
    while (f && fgets(l, sizeof l, f))
      if (strncmp(l, "Cpus_allowed_list:", 18) == 0) printf("CPUS %d %s", rank, l + 18 + strspn(l + 18, " \t"));
    if (f) fclose(f);
  } else {
    fprintf(stderr, "fl_rank: unknown action '%s'\n", a);
    exit(99);
  }
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *spec = getenv("FL_SPEC");
  const char *env_rank = getenv("RINGMPI_RANK");
  rank = env_rank ? atoi(env_rank) : 0;
  char *mine = strdup(spec_for(spec ? spec : "", rank));
  if (strncmp(mine, "noinit", 6) != 0) MPI_Init(&argc, &argv);
  char *save = NULL;
  for (char *a = strtok_r(mine, ",", &save); a; a = strtok_r(NULL, ",", &save)) act(a, argc, argv);
  free(mine);
  return 0;
}
