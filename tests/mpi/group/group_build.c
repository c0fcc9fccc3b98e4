/* The group constructors (MPI-3.1 §5.3.2) against a naive model: every
 * group is checked member by member through MPI_Group_translate_ranks into
 * the world group. Each rank builds many random groups (seeded by its rank,
 * so ranks build different ones: the calls are local). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAXN 64

typedef struct {
  int n;
  int w[MAXN]; /* world ranks, in group order */
} Model;

static MPI_Group world;
static int wsize;
static unsigned seed;

static int rnd(int n) { /* 0..n-1 */
  seed = seed * 1103515245u + 12345u;
  return (int)((seed >> 8) % (unsigned)n);
}

static int find(const Model *m, int w) {
  for (int i = 0; i < m->n; ++i)
    if (m->w[i] == w) return i;
  return -1;
}

/* g must hold exactly m's members in m's order. */
static void expect(MPI_Group g, const Model *m) {
  int n = -1, r = -2, me;
  CHECK_MPI(MPI_Group_size(g, &n));
  CHECK(n == m->n);
  if (m->n == 0) CHECK(g == MPI_GROUP_EMPTY);
  int idx[MAXN], out[MAXN];
  for (int i = 0; i < n; ++i) idx[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(g, n, idx, world, out));
  for (int i = 0; i < n; ++i) CHECK(out[i] == m->w[i]);
  int all[MAXN];
  for (int i = 0; i < wsize; ++i) all[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(world, wsize, all, g, out));
  for (int i = 0; i < wsize; ++i) CHECK(out[i] == (find(m, i) < 0 ? MPI_UNDEFINED : find(m, i)));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Group_rank(g, &r));
  CHECK(r == (find(m, me) < 0 ? MPI_UNDEFINED : find(m, me)));
}

static void random_model(Model *m) {
  int used[MAXN] = {0};
  m->n = rnd(wsize + 1);
  for (int i = 0; i < m->n; ++i) {
    int w;
    do w = rnd(wsize);
    while (used[w]);
    used[w] = 1;
    m->w[i] = w;
  }
}

static MPI_Group make(const Model *m) {
  MPI_Group g;
  CHECK_MPI(MPI_Group_incl(world, m->n, m->w, &g));
  expect(g, m);
  return g;
}

static void release(MPI_Group *g) {
  CHECK_MPI(MPI_Group_free(g));
  CHECK(*g == MPI_GROUP_NULL);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
  CHECK(wsize <= MAXN);
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  seed = 1234u + 7u * (unsigned)rank;

  for (int iter = 0; iter < 300; ++iter) {
    Model a, b, m;
    random_model(&a);
    random_model(&b);
    MPI_Group ga = make(&a), gb = make(&b), g;

    /* union: a, then b's members not in a */
    m = a;
    for (int i = 0; i < b.n; ++i)
      if (find(&a, b.w[i]) < 0) m.w[m.n++] = b.w[i];
    CHECK_MPI(MPI_Group_union(ga, gb, &g));
    expect(g, &m);
    if (g != MPI_GROUP_EMPTY) release(&g);

    /* intersection and difference keep a's order */
    Model in = {0}, out = {0};
    for (int i = 0; i < a.n; ++i) {
      if (find(&b, a.w[i]) >= 0)
        in.w[in.n++] = a.w[i];
      else
        out.w[out.n++] = a.w[i];
    }
    CHECK_MPI(MPI_Group_intersection(ga, gb, &g));
    expect(g, &in);
    if (g != MPI_GROUP_EMPTY) release(&g);
    CHECK_MPI(MPI_Group_difference(ga, gb, &g));
    expect(g, &out);
    int res;
    CHECK_MPI(MPI_Group_compare(g, ga, &res));
    CHECK(res == (in.n == 0 ? MPI_IDENT : MPI_UNEQUAL));
    if (g != MPI_GROUP_EMPTY) release(&g);

    /* incl of a random sub-list of a, in random order */
    int ranks[MAXN], k = a.n ? rnd(a.n + 1) : 0;
    for (int i = 0; i < a.n; ++i) ranks[i] = i;
    for (int i = a.n - 1; i > 0; --i) {
      const int j = rnd(i + 1), t = ranks[i];
      ranks[i] = ranks[j];
      ranks[j] = t;
    }
    m.n = k;
    for (int i = 0; i < k; ++i) m.w[i] = a.w[ranks[i]];
    CHECK_MPI(MPI_Group_incl(ga, k, ranks, &g));
    expect(g, &m);
    if (k == a.n && k > 0) { /* a permutation of a */
      CHECK_MPI(MPI_Group_compare(g, ga, &res));
      CHECK(res == (memcmp(m.w, a.w, sizeof(int) * k) == 0 ? MPI_IDENT : MPI_SIMILAR));
    }
    if (g != MPI_GROUP_EMPTY) release(&g);

    /* excl of the same sub-list keeps a's order */
    int excluded[MAXN] = {0};
    for (int i = 0; i < k; ++i) excluded[ranks[i]] = 1;
    m.n = 0;
    for (int i = 0; i < a.n; ++i)
      if (!excluded[i]) m.w[m.n++] = a.w[i];
    CHECK_MPI(MPI_Group_excl(ga, k, ranks, &g));
    expect(g, &m);
    if (k == 0) {
      CHECK_MPI(MPI_Group_compare(g, ga, &res));
      CHECK(res == MPI_IDENT);
    }
    if (g != MPI_GROUP_EMPTY) release(&g);

    /* range_incl / range_excl with one or two triples: forwards, backwards
     * (first > last, negative stride), last not hit exactly. */
    if (a.n > 0) {
      int tr[2][3], nt = 1 + (a.n > 1 ? rnd(2) : 0), mark[MAXN] = {0};
      Model ri = {0};
      int ok = 1;
      for (int t = 0; t < nt; ++t) {
        const int s = (1 + rnd(3)) * (rnd(2) ? 1 : -1);
        const int first = rnd(a.n);
        int last = s > 0 ? first + rnd(a.n - first) : first - rnd(first + 1);
        tr[t][0] = first;
        tr[t][1] = last;
        tr[t][2] = s;
        for (int x = first; s > 0 ? x <= last : x >= last; x += s) {
          if (mark[x]) ok = 0;
          mark[x] = 1;
          ri.w[ri.n++] = a.w[x];
        }
      }
      if (ok) { /* no rank named twice: a valid call */
        CHECK_MPI(MPI_Group_range_incl(ga, nt, tr, &g));
        expect(g, &ri);
        if (g != MPI_GROUP_EMPTY) release(&g);
        m.n = 0;
        for (int i = 0; i < a.n; ++i)
          if (!mark[i]) m.w[m.n++] = a.w[i];
        CHECK_MPI(MPI_Group_range_excl(ga, nt, tr, &g));
        expect(g, &m);
        if (g != MPI_GROUP_EMPTY) release(&g);
      }
    }
    if (ga != MPI_GROUP_EMPTY) release(&ga);
    if (gb != MPI_GROUP_EMPTY) release(&gb);
  }

  /* n = 0 constructors: incl and range_incl give MPI_GROUP_EMPTY, excl and
   * range_excl the group itself. */
  MPI_Group g;
  int res;
  CHECK_MPI(MPI_Group_incl(world, 0, NULL, &g));
  CHECK(g == MPI_GROUP_EMPTY);
  CHECK_MPI(MPI_Group_range_incl(world, 0, NULL, &g));
  CHECK(g == MPI_GROUP_EMPTY);
  CHECK_MPI(MPI_Group_excl(world, 0, NULL, &g));
  CHECK_MPI(MPI_Group_compare(g, world, &res));
  CHECK(res == MPI_IDENT);
  release(&g);
  CHECK_MPI(MPI_Group_range_excl(world, 0, NULL, &g));
  CHECK_MPI(MPI_Group_compare(g, world, &res));
  CHECK(res == MPI_IDENT);
  release(&g);
  /* Set operations with MPI_GROUP_EMPTY. */
  CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, world, &g));
  CHECK_MPI(MPI_Group_compare(g, world, &res));
  CHECK(res == MPI_IDENT);
  release(&g);
  CHECK_MPI(MPI_Group_intersection(world, MPI_GROUP_EMPTY, &g));
  CHECK(g == MPI_GROUP_EMPTY);
  CHECK_MPI(MPI_Group_difference(MPI_GROUP_EMPTY, world, &g));
  CHECK(g == MPI_GROUP_EMPTY);

  release(&world);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
