/* test_record_table.c - the record table (core/record_table.c): its name
 * (distinct per source file, stable, the prefix), the build (sorted by
 * kernel name whatever the input order) and the binary search (every
 * kernel found, names that are prefixes of others, absent names, a table
 * without its NUL, a malformed table), and the line iterator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "orion/record.h"

#define N 257

static void make(char *buf, size_t n, const char *kernel) {
  snprintf(buf, n, "orion1;k=%s;sm=90;dir=inc;ml=40;thr=32;blk=256;bk=0;w0=48;wmax=64;"
                   "v=orig:o:0:48;np=4;hp=0",
           kernel);
}

int main(void) {
  char a[ORION_RECORD_TABLE_NAME_MAX], b[ORION_RECORD_TABLE_NAME_MAX], c[ORION_RECORD_TABLE_NAME_MAX];
  orion_record_table_name("/src/a.cu", a, sizeof a);
  orion_record_table_name("/src/b.cu", b, sizeof b);
  orion_record_table_name("/src/a.cu", c, sizeof c);
  CHECK(strncmp(a, ORION_RECORD_TABLE_PREFIX, strlen(ORION_RECORD_TABLE_PREFIX)) == 0, "prefix %s", a);
  CHECK(strlen(a) == ORION_RECORD_TABLE_NAME_MAX - 1, "length %zu", strlen(a));
  CHECK(strcmp(a, b) != 0 && strcmp(a, c) == 0, "%s %s %s", a, b, c);
  orion_record_table_name(NULL, b, sizeof b);
  orion_record_table_name("", c, sizeof c);
  CHECK(strcmp(b, c) == 0 && strcmp(b, "__orion_records_cbf29ce484222325") == 0, "empty: %s", b);

  /* Kernels in reverse order, some the prefix of another. */
  static char recs[N][256];
  const char *ptrs[N];
  for (int i = 0; i < N; i++) {
    char k[32];
    if (i % 3 == 0)
      snprintf(k, sizeof k, "k%d", N - i);
    else if (i % 3 == 1)
      snprintf(k, sizeof k, "k%d_", N - i);
    else
      snprintf(k, sizeof k, "_Z%dk%dPf", N - i, N - i);
    make(recs[i], sizeof recs[i], k);
    ptrs[i] = recs[i];
  }
  char *t = orion_record_table_build(ptrs, N);
  CHECK(t != NULL, "build");
  if (!t)
    return CHECK_DONE();
  size_t size = strlen(t) + 1, len = 0, lines = 0;
  char prev[ORION_RECORD_KERNEL_MAX] = "";
  for (size_t pos = 0; (pos = orion_record_table_next(t, size, pos, &len)) != (size_t)-1;
       pos += len + 1, lines++) {
    orion_record r;
    char line[256];
    memcpy(line, t + pos, len);
    line[len] = '\0';
    CHECK(orion_record_parse(line, &r) == ORION_OK, "line %zu parses", lines);
    CHECK(strcmp(prev, r.kernel) < 0, "sorted: %s before %s", prev, r.kernel);
    snprintf(prev, sizeof prev, "%s", r.kernel);
  }
  CHECK(lines == N, "%zu lines", lines);
  for (int i = 0; i < N; i++) {
    char k[64];
    sscanf(recs[i], "orion1;k=%63[^;]", k);
    const char *hit = orion_record_table_find(t, size, k, &len);
    CHECK(hit && len == strlen(recs[i]) && memcmp(hit, recs[i], len) == 0, "find %s", k);
    /* Without the terminating NUL (a copy of exactly the table's bytes). */
    hit = orion_record_table_find(t, size - 1, k, &len);
    CHECK(hit && len == strlen(recs[i]), "find %s without NUL", k);
  }
  const char *absent[] = {"k", "k0", "k1000", "a", "zzz", "_Z", "k12_x"};
  for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
    CHECK(!orion_record_table_find(t, size, absent[i], &len), "absent %s", absent[i]);
  CHECK(!orion_record_table_find(t, size, "", &len), "empty name");
  free(t);

  /* Not a table; an empty table; a text that is not a record. */
  const char junk[] = "hello\nworld\n";
  CHECK(!orion_record_table_find(junk, sizeof junk, "k1", &len), "junk");
  char *empty = orion_record_table_build(ptrs, 0);
  CHECK(empty && !*empty && !orion_record_table_find(empty, 1, "k1", &len), "empty table");
  free(empty);
  const char *bad[] = {"not a record"};
  CHECK(!orion_record_table_build(bad, 1), "rejects a non-record");
  const char *nl[] = {"orion1;k=a;sm=90\nx"};
  CHECK(!orion_record_table_build(nl, 1), "rejects a newline");
  return CHECK_DONE();
}
