/* sass/elf/nvinfo.c - EIATTR records of .nv.info and .nv.info.<kernel>.
 *
 * A record is: format byte (1 NVAL, 2 BVAL, 3 HVAL, 4 SVAL), attribute
 * byte, little-endian u16, and for SVAL a payload of that many bytes.  A
 * .nv.info section is a sequence of records that must end exactly at the
 * section's end; an unknown format byte is an error (the record's length
 * would be unknown), an unknown attribute is kept as it is.  Edits rebuild
 * the section's bytes: the records before and after the edited one are
 * copied unchanged, so untouched records keep their bytes and order.
 * Attribute names come from ORION_EIATTR_LIST (include/orion/cubin.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cubin_internal.h"

const char *orion_eiattr_name(unsigned attr) {
  switch (attr) {
#define ORION_EIATTR_X_NAME(name, code) \
  case code:                            \
    return "EIATTR_" #name;
    ORION_EIATTR_LIST(ORION_EIATTR_X_NAME)
#undef ORION_EIATTR_X_NAME
  default:
    return NULL;
  }
}

const char *orion_eifmt_name(unsigned fmt) {
  static const char *const names[] = {NULL, "EIFMT_NVAL", "EIFMT_BVAL", "EIFMT_HVAL", "EIFMT_SVAL"};
  return fmt < sizeof names / sizeof names[0] ? names[fmt] : NULL;
}

size_t orion_cubin_nvinfo_count(const orion_cubin *c, size_t sec) {
  return orion_cubin_is_nvinfo(c, sec) ? c->sec[sec].nrec : 0;
}

orion_status orion_cubin_nvinfo_get(const orion_cubin *c, size_t sec, size_t i, orion_eiattr_rec *out) {
  if (!orion_cubin_is_nvinfo(c, sec) || i >= c->sec[sec].nrec || !out)
    return ORION_ERR_NOT_FOUND;
  const cb_sec *s = &c->sec[sec];
  const unsigned char *p = s->data + s->rec[i];
  out->fmt = p[0];
  out->attr = p[1];
  out->value = (uint16_t)(p[2] | p[3] << 8);
  out->payload = p[0] == ORION_EIFMT_SVAL ? p + 4 : NULL;
  out->offset = s->rec[i];
  return ORION_OK;
}

/* Rebuild section sec with record i replaced by rec (rlen bytes; rlen 0
 * removes it; i == nrec appends). */
static orion_status splice(orion_cubin *c, size_t sec, size_t i, const unsigned char *rec, size_t rlen) {
  const cb_sec *s = &c->sec[sec];
  size_t start = i < s->nrec ? s->rec[i] : s->sh.sh_size;
  size_t end = i + 1 < s->nrec ? s->rec[i + 1] : s->sh.sh_size;
  if (i >= s->nrec)
    end = start;
  size_t n = start + rlen + (s->sh.sh_size - end);
  unsigned char *b = malloc(n ? n : 1);
  if (!b)
    return ORION_ERR_NOMEM;
  if (start)
    memcpy(b, s->data, start);
  if (rlen)
    memcpy(b + start, rec, rlen);
  if (s->sh.sh_size > end)
    memcpy(b + start + rlen, s->data + end, s->sh.sh_size - end);
  orion_status st = cb_set_data(c, sec, b, n);
  free(b);
  return st;
}

orion_status orion_cubin_nvinfo_set_value(orion_cubin *c, size_t sec, size_t i, uint16_t value) {
  orion_eiattr_rec r;
  orion_status st = orion_cubin_nvinfo_get(c, sec, i, &r);
  if (st)
    return st;
  if (r.fmt == ORION_EIFMT_SVAL)
    return ORION_ERR_INVALID_ARG;
  unsigned char *p = c->sec[sec].data + r.offset;
  p[2] = (unsigned char)value;
  p[3] = (unsigned char)(value >> 8);
  return ORION_OK;
}

static orion_status make_rec(unsigned fmt, unsigned attr, uint16_t value, const void *payload,
                                   size_t size, unsigned char **out, size_t *len) {
  if (fmt < ORION_EIFMT_NVAL || fmt > ORION_EIFMT_SVAL || attr > 0xff)
    return ORION_ERR_INVALID_ARG;
  if (fmt == ORION_EIFMT_SVAL) {
    if (size > 0xffff || (size && !payload))
      return ORION_ERR_RANGE;
    value = (uint16_t)size;
  } else {
    size = 0;
  }
  unsigned char *b = malloc(4 + size);
  if (!b)
    return ORION_ERR_NOMEM;
  b[0] = (unsigned char)fmt;
  b[1] = (unsigned char)attr;
  b[2] = (unsigned char)value;
  b[3] = (unsigned char)(value >> 8);
  if (size)
    memcpy(b + 4, payload, size);
  *out = b;
  *len = 4 + size;
  return ORION_OK;
}

orion_status orion_cubin_nvinfo_set_payload(orion_cubin *c, size_t sec, size_t i, const void *payload,
                                                  size_t size) {
  orion_eiattr_rec r;
  orion_status st = orion_cubin_nvinfo_get(c, sec, i, &r);
  if (st)
    return st;
  if (r.fmt != ORION_EIFMT_SVAL)
    return ORION_ERR_INVALID_ARG;
  unsigned char *b;
  size_t len;
  if ((st = make_rec(r.fmt, r.attr, 0, payload, size, &b, &len)))
    return st;
  st = splice(c, sec, i, b, len);
  free(b);
  return st;
}

orion_status orion_cubin_nvinfo_append(orion_cubin *c, size_t sec, unsigned fmt, unsigned attr,
                                             uint16_t value, const void *payload, size_t size) {
  if (!orion_cubin_is_nvinfo(c, sec))
    return ORION_ERR_NOT_FOUND;
  unsigned char *b;
  size_t len;
  orion_status st = make_rec(fmt, attr, value, payload, size, &b, &len);
  if (st)
    return st;
  st = splice(c, sec, c->sec[sec].nrec, b, len);
  free(b);
  return st;
}

orion_status orion_cubin_nvinfo_remove(orion_cubin *c, size_t sec, size_t i) {
  if (!orion_cubin_is_nvinfo(c, sec) || i >= c->sec[sec].nrec)
    return ORION_ERR_NOT_FOUND;
  return splice(c, sec, i, NULL, 0);
}
