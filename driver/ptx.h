/* driver/ptx.h - just enough of PTX to find, drop and clone kernel entries.
 *
 * Contracts:
 *  - ptx_scan finds every `.entry` definition at module scope (outside
 *    comments and strings; declarations without a body are skipped).  For
 *    each it records byte offsets into the text it was given (which must
 *    outlive the module) and the performance-tuning directives between the
 *    parameter list and the body (.maxnreg, .maxntid, .reqntid,
 *    .minnctapersm).  Entries are in text order.  It fails (returns -1 and a
 *    malloc'd message in *err) only on an unterminated parameter list or body.
 *  - [start, end) of an entry spans whole lines: from the beginning of the
 *    line holding its linkage directive (.visible/.weak/.extern) or .entry,
 *    through the closing brace and the rest of that line.  Deleting that
 *    range leaves a well-formed module.
 *  - Clone names are orion_clone_name's (orion/demangle.h): "__orion_<tag>"
 *    inside a mangled kernel's identifier, else after the name.
 *  - ptx_scan also records the module-scope `.func` definitions (name and
 *    body) and the names of module-scope `.extern .shared` variables (the
 *    kernel's dynamic shared memory), for ptx_entry_reach, and the text of
 *    the first record table `__orion_records_*` (orion/record.h).
 */
#ifndef ORION_DRIVER_PTX_H
#define ORION_DRIVER_PTX_H

#include <stddef.h>

#include "util.h"

typedef struct ptx_entry {
  char *name;
  size_t start, end;            /* whole-line span of the definition */
  size_t name_pos, name_end;    /* the entry's name */
  size_t dir_pos;               /* after the parameter list: directives start */
  size_t body_pos;              /* the body's '{' */
  size_t body_end;              /* the body's closing '}' */
  int maxnreg;                  /* 0: none */
  size_t maxnreg_pos, maxnreg_end; /* the .maxnreg directive's span (maxnreg > 0) */
  int maxntid[3], n_maxntid;    /* n_*: number of dimensions given, 0: none */
  int reqntid[3], n_reqntid;
  int minnctapersm;             /* 0: none */
} ptx_entry;

typedef struct ptx_func {
  char *name;
  size_t body_pos, body_end;    /* '{' and its '}' */
} ptx_func;

typedef struct ptx_module {
  const char *text;
  size_t len;
  ptx_entry *entries;
  size_t n_entries;
  ptx_func *funcs;              /* .func definitions with a body */
  size_t n_funcs;
  strvec dyn_shared;            /* names of .extern .shared variables */
  char target[64];              /* first word after .target, "" if none */
  char *records;                /* the record table's text (orion/record.h), or NULL */
} ptx_module;

int ptx_scan(const char *text, size_t len, ptx_module *m, char **err);
void ptx_module_free(ptx_module *m);

/* Index of the entry named name, or -1. */
int ptx_find_entry(const ptx_module *m, const char *name);

/* Threads per block from .reqntid, else .maxntid (product of the
 * dimensions); 0 if neither is given. */
int ptx_entry_threads(const ptx_entry *e);

/* If name is a clone of some kernel, return 1 and set *kernel and *tag
 * (each may be NULL; the caller frees what it gets). */
int ptx_split_clone_name(const char *name, char **kernel, char **tag);

/* Append the module text without the entries whose keep[i] is 0. */
void ptx_emit_without(const ptx_module *m, const unsigned char *keep, orion_strbuf *out);

/* Per-entry edits for ptx_emit_edited. */
typedef struct ptx_edit {
  int drop;         /* delete the entry */
  int maxntid;      /* > 0: add `.maxntid N, 1, 1` before the body */
  int smem_pragma;  /* add `.pragma "enable_smem_spilling";` as the body's
                       first statement (ptxas 13) */
  int maxnreg;      /* > 0: the entry's .maxnreg (it has one) becomes N */
} ptx_edit;

/* Append the module text with edits[i] applied to entry i (edits has
 * n_entries elements).  Nothing else changes. */
void ptx_emit_edited(const ptx_module *m, const ptx_edit *edits, orion_strbuf *out);

/* What an entry reaches: its body and, transitively, the bodies of the
 * .func definitions it calls.  abi_call: a call to a function the module
 * only declares (vprintf, malloc, __assertfail, ...) or through a register
 * (indirect); ptxas compiles those with the ABI.  dyn_smem: a reference to
 * an .extern .shared variable.  smem_size: a read of %total_smem_size or
 * %dynamic_smem_size (more shared memory changes what it reads).  The
 * *_what fields name the first one found ("vprintf", "indirect call", the
 * variable, the register). */
typedef struct ptx_reach {
  int abi_call, dyn_smem, smem_size;
  char abi_what[128], dyn_what[128], size_what[32];
} ptx_reach;
void ptx_entry_reach(const ptx_module *m, const ptx_entry *e, ptx_reach *out);
/* requires reached with m->n_funcs elements (at least 1); sets reached[i]
 * to 1 for each .func definition e calls, directly or not, else 0. */
void ptx_entry_funcs(const ptx_module *m, const ptx_entry *e, unsigned char *reached);

/* The bytes of a module-scope `.b8 sym[N] = {...}` initialiser up to the
 * first NUL, as a malloc'd string (ptx_emit_string_global's form, and
 * LLVM's for a constant string); NULL if there is none or it is malformed. */
char *ptx_global_string(const ptx_module *m, const char *sym);
/* The same for the first global whose name starts with prefix (the record
 * table, orion/record.h). */
char *ptx_global_string_prefix(const ptx_module *m, const char *prefix);

/* Append a copy of entry e renamed to new_name, with any .maxnreg replaced
 * by `.maxnreg maxnreg` (maxnreg > 0), and .minnctapersm dropped unless the
 * entry has .maxntid or .reqntid. */
void ptx_emit_clone(const ptx_module *m, const ptx_entry *e, const char *new_name,
                    int maxnreg, orion_strbuf *out);

/* Append a module-scope definition of a NUL-terminated byte string:
 * `.visible .global .align 1 .b8 <sym>[n] = {...};` */
void ptx_emit_string_global(const char *sym, const char *value, orion_strbuf *out);

#endif /* ORION_DRIVER_PTX_H */
