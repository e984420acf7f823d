/* sass/elf/cubin_write.c - cubin layout and write (the parse is cubin.c).
 * See include/orion/cubin.h for the contract.
 *
 * Write: the "items" of the file are the file-backed sections, the section
 * header table and the program header table.  Walking them in input order
 * with a running shift d (new offset - input offset), each item before the
 * first resized one keeps its input offset; from it on, an item goes to input
 * offset + d when that is aligned and past the previous item's end, else to
 * the next aligned position after it.  With no size change d stays
 * 0 and the output starts as a copy of the input, so gaps and untouched
 * bytes come out identical.  A program header follows the items it covered
 * in the input: its file range is moved and resized with them and its
 * memory size grows or shrinks with its NOBITS sections.
 */
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cubin_internal.h"
#include "orion/outfile.h"

typedef struct item {
  uint64_t orig_off, orig_size, size, align, new_off;
  size_t sec; /* section index; (size_t)-1 section headers, -2 program headers */
} item;

static int item_cmp(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->orig_off != y->orig_off)
    return x->orig_off < y->orig_off ? -1 : 1;
  if (x->orig_size != y->orig_size) /* empty sections before the one at their offset */
    return x->orig_size < y->orig_size ? -1 : 1;
  return x->sec < y->sec ? -1 : x->sec > y->sec;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Where each item goes; returns the file size.  *tail_from: where the
 * input's bytes after its last item start (they go after the last item). */
static uint64_t layout(const orion_cubin *c, item *it, size_t n, uint64_t *tail_from) {
  qsort(it, n, sizeof *it, item_cmp);
  uint64_t pos = sizeof(Elf64_Ehdr);
  int64_t d = 0;
  int changed = 0; /* an earlier item changed size: from here on, re-place */
  for (size_t i = 0; i < n; i++) {
    uint64_t want = (uint64_t)((int64_t)it[i].orig_off + d);
    int resized = it[i].size != it[i].orig_size;
    if ((changed || resized) && (want < pos || want % (it[i].align ? it[i].align : 1)))
      want = align_up(pos, it[i].align);
    changed |= resized;
    it[i].new_off = want;
    d = (int64_t)want - (int64_t)it[i].orig_off;
    if (want + it[i].size > pos)
      pos = want + it[i].size;
  }
  /* The input's tail (bytes after the last item) follows the last item. */
  uint64_t end = 0;
  for (size_t i = 0; i < n; i++)
    if (it[i].orig_off + it[i].orig_size > end)
      end = it[i].orig_off + it[i].orig_size;
  *tail_from = end < c->orig_size ? end : c->orig_size;
  return pos + (c->orig_size - *tail_from);
}

static int64_t shift_at(const item *it, size_t n, uint64_t orig_off) {
  /* the shift of the first item at or after orig_off (else the last one) */
  for (size_t i = 0; i < n; i++)
    if (it[i].orig_off >= orig_off)
      return (int64_t)it[i].new_off - (int64_t)it[i].orig_off;
  return n ? (int64_t)it[n - 1].new_off - (int64_t)it[n - 1].orig_off : 0;
}

/* A program header after the layout; noff[] holds each section's new
 * offset.  Members: file-backed sections inside [p_offset, +p_filesz), and
 * (for segments with memsz > filesz) allocated NOBITS sections placed at
 * or before the end of the file part. */
static Elf64_Phdr move_segment(const orion_cubin *c, const Elf64_Phdr *p, const uint64_t *noff,
                               uint64_t new_phoff, int64_t d_here) {
  Elf64_Phdr q = *p;
  if (c->nph && p->p_offset == c->eh.e_phoff && p->p_filesz == c->nph * sizeof(Elf64_Phdr)) {
    q.p_offset = new_phoff;
    return q;
  }
  size_t first = 0, first_nb = 0;
  uint64_t last_orig_end = p->p_offset, last_new_end = 0;
  int64_t nobits_delta = 0;
  for (size_t i = 1; i < c->nsec; i++) {
    const cb_sec *s = &c->sec[i];
    if (cb_nobits(s->sh.sh_type)) {
      /* the writable segment holds the shared-memory sections (memsz 0
       * while they are all empty) */
      if ((p->p_memsz > p->p_filesz || (p->p_flags & PF_W)) && (s->sh.sh_flags & SHF_ALLOC) &&
          s->orig_off >= p->p_offset &&
          s->orig_off <= p->p_offset + p->p_filesz) {
        nobits_delta += (int64_t)s->sh.sh_size - (int64_t)s->orig_size;
        if (!first_nb || s->orig_off < c->sec[first_nb].orig_off)
          first_nb = i;
      }
      continue;
    }
    if (!s->orig_size || s->orig_off < p->p_offset || s->orig_off + s->orig_size > p->p_offset + p->p_filesz)
      continue;
    if (!first || s->orig_off < c->sec[first].orig_off)
      first = i;
    if (s->orig_off + s->orig_size >= last_orig_end) {
      last_orig_end = s->orig_off + s->orig_size;
      last_new_end = noff[i] + s->sh.sh_size;
    }
  }
  if (first) {
    q.p_offset = noff[first] - (c->sec[first].orig_off - p->p_offset);
    q.p_filesz = last_new_end - q.p_offset + (p->p_offset + p->p_filesz - last_orig_end);
  } else if (first_nb) {
    q.p_offset = noff[first_nb] - (c->sec[first_nb].orig_off - p->p_offset);
  } else {
    q.p_offset = (uint64_t)((int64_t)p->p_offset + d_here);
  }
  q.p_memsz = (uint64_t)((int64_t)q.p_filesz + (int64_t)(p->p_memsz - p->p_filesz) + nobits_delta);
  return q;
}

orion_status orion_cubin_write(const orion_cubin *c, unsigned char **out, size_t *size) {
  if (!c || !out || !size)
    return ORION_ERR_INVALID_ARG;
  item *it = malloc((c->nsec + 2) * sizeof *it);
  if (!it)
    return ORION_ERR_NOMEM;
  size_t n = 0;
  for (size_t i = 1; i < c->nsec; i++) {
    const cb_sec *s = &c->sec[i];
    if (cb_nobits(s->sh.sh_type))
      continue;
    it[n++] = (item){s->orig_off, s->orig_size, s->sh.sh_size, s->sh.sh_addralign, 0, i};
  }
  uint64_t shsz = c->nsec * sizeof(Elf64_Shdr), phsz = c->nph * sizeof(Elf64_Phdr);
  it[n++] = (item){c->eh.e_shoff, c->orig_nsec * sizeof(Elf64_Shdr), shsz, 8, 0, (size_t)-1};
  if (c->nph)
    it[n++] = (item){c->eh.e_phoff, phsz, phsz, 8, 0, (size_t)-2};
  uint64_t tail_from = 0;
  uint64_t total = layout(c, it, n, &tail_from);
  unsigned char *buf = calloc(1, total ? total : 1);
  if (!buf) {
    free(it);
    return ORION_ERR_NOMEM;
  }
  int moved = total != c->orig_size;
  for (size_t i = 0; i < n; i++)
    moved |= it[i].new_off != it[i].orig_off || it[i].size != it[i].orig_size;
  if (!moved) /* same layout: start from the input, gaps included */
    memcpy(buf, c->orig, total);
  else if (c->orig_size > tail_from)
    memcpy(buf + total - (c->orig_size - tail_from), c->orig + tail_from, c->orig_size - tail_from);
  Elf64_Ehdr eh = c->eh;
  uint64_t new_phoff = eh.e_phoff;
  for (size_t i = 0; i < n; i++) {
    if (it[i].sec == (size_t)-1)
      eh.e_shoff = it[i].new_off;
    else if (it[i].sec == (size_t)-2)
      new_phoff = it[i].new_off;
  }
  if (!c->nph && new_phoff > total) /* no table: keep the offset inside the file */
    new_phoff = 0;
  eh.e_phoff = new_phoff;
  memcpy(buf, &eh, sizeof eh);
  Elf64_Shdr *sh = malloc(shsz);
  uint64_t *noff = malloc(c->nsec * sizeof *noff);
  if (!sh || !noff) {
    free(sh);
    free(noff);
    free(it);
    free(buf);
    return ORION_ERR_NOMEM;
  }
  for (size_t i = 0; i < c->nsec; i++) /* NOBITS and the null section */
    noff[i] = i ? (uint64_t)((int64_t)c->sec[i].orig_off + shift_at(it, n, c->sec[i].orig_off)) : c->sec[0].orig_off;
  for (size_t i = 0; i < n; i++)
    if (it[i].sec < c->nsec)
      noff[it[i].sec] = it[i].new_off;
  for (size_t i = 0; i < c->nsec; i++) {
    sh[i] = c->sec[i].sh;
    sh[i].sh_offset = noff[i];
    if (i && !cb_nobits(c->sec[i].sh.sh_type) && c->sec[i].sh.sh_size)
      memcpy(buf + noff[i], c->sec[i].data, c->sec[i].sh.sh_size);
  }
  memcpy(buf + eh.e_shoff, sh, shsz);
  for (size_t i = 0; i < c->nph; i++) {
    Elf64_Phdr q = move_segment(c, &c->ph[i], noff, new_phoff, shift_at(it, n, c->ph[i].p_offset));
    /* a segment that covered more than sections (never seen from ptxas)
     * is kept inside the file */
    if (q.p_offset > total)
      q.p_offset = total;
    if (q.p_filesz > total - q.p_offset)
      q.p_filesz = total - q.p_offset;
    if (q.p_memsz < q.p_filesz)
      q.p_memsz = q.p_filesz;
    memcpy(buf + new_phoff + i * sizeof q, &q, sizeof q);
  }
  free(noff);
  free(sh);
  free(it);
  *out = buf;
  *size = total;
  return ORION_OK;
}

orion_status orion_cubin_write_file(const orion_cubin *c, const char *path, orion_cubin_diag *diag) {
  if (diag)
    diag->msg[0] = 0;
  if (!c || !path)
    return cb_fail(diag, ORION_ERR_INVALID_ARG, "invalid argument");
  unsigned char *buf;
  size_t n;
  orion_status st = orion_cubin_write(c, &buf, &n);
  if (st)
    return cb_fail(diag, st, "%s", orion_strerror(st));
  if (orion_write_file_atomic(path, buf, n, 0) != 0)
    st = cb_fail(diag, ORION_ERR_IO, "cannot write: %s", strerror(errno));
  free(buf);
  return st;
}

