/* record_table.c - the record table: every decision record of one
 * translation unit in one global (orion/record.h).
 *
 * Layout: the records' texts sorted by kernel name (strcmp on the k= field),
 * each followed by '\n', the whole NUL-terminated.  A record never holds
 * '\n' (kernel names are PTX identifiers), so the table is a sorted list of
 * lines and a kernel's record is found by binary search on byte offsets:
 * probe the line around the middle of [lo, hi), compare its kernel with the
 * one sought, keep the half that can hold it.  Each probe drops at least
 * the probed line, so the search ends after O(log n) probes of O(line)
 * work, without an index.
 *
 * The table's name is ORION_RECORD_TABLE_PREFIX and 16 hex digits of the
 * 64-bit FNV-1a hash of the translation unit's source file name (the
 * LLVM module's source_filename, the same in the device and the host
 * compilation of one file), so that the tables of the translation units
 * linked into one module (-fgpu-rdc) have distinct names and the host side
 * can name its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/record.h"

#define KEY_PREFIX "orion1;k="

void orion_record_table_name(const char *source, char *buf, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (const unsigned char *p = (const unsigned char *)(source ? source : ""); *p; p++)
    h = (h ^ *p) * 1099511628211ull;
  snprintf(buf, n, "%s%016llx", ORION_RECORD_TABLE_PREFIX, (unsigned long long)h);
}

/* The kernel name of the record at line (end: the line's end), as a
 * pointer and length; 0 if the line is not a record. */
static int line_kernel(const char *line, const char *end, const char **k, size_t *klen) {
  size_t pl = sizeof KEY_PREFIX - 1;
  if ((size_t)(end - line) <= pl || memcmp(line, KEY_PREFIX, pl) != 0)
    return 0;
  const char *s = line + pl, *e = s;
  while (e < end && *e != ';')
    e++;
  *k = s;
  *klen = (size_t)(e - s);
  return *klen > 0;
}

/* strcmp order of a (alen bytes) against the NUL-terminated b. */
static int cmp_name(const char *a, size_t alen, const char *b) {
  size_t blen = strlen(b);
  int c = memcmp(a, b, alen < blen ? alen : blen);
  return c ? c : (alen > blen) - (alen < blen);
}

static int cmp_records(const void *x, const void *y) {
  const char *a = *(const char *const *)x, *b = *(const char *const *)y;
  const char *ka = "", *kb = "";
  size_t la = 0, lb = 0;
  line_kernel(a, a + strlen(a), &ka, &la);
  line_kernel(b, b + strlen(b), &kb, &lb);
  int c = memcmp(ka, kb, la < lb ? la : lb);
  return c ? c : (la > lb) - (la < lb);
}

char *orion_record_table_build(const char *const *recs, size_t n) {
  const char **sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (!sorted)
    return NULL;
  size_t total = 1;
  for (size_t i = 0; i < n; i++) {
    const char *k;
    size_t kl, len = strlen(recs[i]);
    if (!line_kernel(recs[i], recs[i] + len, &k, &kl) || strchr(recs[i], '\n')) {
      free(sorted);
      return NULL;
    }
    sorted[i] = recs[i];
    total += len + 1;
  }
  qsort(sorted, n, sizeof *sorted, cmp_records);
  char *out = malloc(total), *p = out;
  for (size_t i = 0; out && i < n; i++) {
    size_t len = strlen(sorted[i]);
    memcpy(p, sorted[i], len);
    p[len] = '\n';
    p += len + 1;
  }
  if (out)
    *p = '\0';
  free(sorted);
  return out;
}

const char *orion_record_table_find(const char *table, size_t size, const char *kernel,
                                    size_t *len) {
  if (!table || !kernel || !*kernel)
    return NULL;
  const char *nul = memchr(table, '\0', size);
  size_t lo = 0, hi = nul ? (size_t)(nul - table) : size;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2, s = mid, e = mid;
    while (s > lo && table[s - 1] != '\n')
      s--;
    while (e < hi && table[e] != '\n')
      e++;
    const char *k;
    size_t kl;
    if (!line_kernel(table + s, table + e, &k, &kl))
      return NULL; /* not a table */
    int c = cmp_name(k, kl, kernel);
    if (c == 0) {
      *len = e - s;
      return table + s;
    }
    if (c < 0)
      lo = e < hi ? e + 1 : hi;
    else
      hi = s;
  }
  return NULL;
}

size_t orion_record_table_next(const char *table, size_t size, size_t pos, size_t *len) {
  const char *nul = memchr(table, '\0', size);
  size_t end = nul ? (size_t)(nul - table) : size;
  if (pos >= end)
    return (size_t)-1;
  const char *nl = memchr(table + pos, '\n', end - pos);
  *len = nl ? (size_t)(nl - table) - pos : end - pos;
  return pos;
}
