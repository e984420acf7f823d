/* orion/record.h - the decision record the compiler leaves for the runtime.
 *
 * OrionPass writes one record per kernel, all of a translation unit's
 * records in ONE global, the record table (record_table.c): the records
 * sorted by kernel name, one per line, NUL-terminated, in the externally
 * visible constant `__orion_records_<16 hex digits>` (addrspace 1), the
 * digits a hash of the unit's source file name (orion_record_table_name),
 * so that the tables of units linked into one module (-fgpu-rdc) differ
 * and the host compilation of the file can name it (orion_site.records).
 * It survives into the cubin, where the runtime reads it with
 * cuModuleGetGlobal and finds a kernel's line by binary search; tools read
 * it from the PTX or cubin.  One global per unit rather than one per kernel:
 * ptxas's time grows with the number of module-scope globals times the
 * number of entries.  The text form of one record is one line:
 *
 *   orion1;k=<kernel>;sm=90;dir=inc;ml=57;thr=32;blk=256;bk=0;w0=40;wmax=64;
 *   v=orig:o:0:40,r32:c:32:64,p32:f:0:32;np=2;hp=6;dsm=r32:000000
 *
 * where each version is tag:role:max_regs:target_warps (role letters o, c, s,
 * f, u for original, conservative, step, failsafe, unroll; tags starting with 'p' are
 * runtime padding versions with no binary).  Clones are entries named
 * `<kernel>__orion_<tag>` (orion_clone_name, orion/demangle.h: the tag goes
 * inside a mangled kernel's identifier).  np is the number of the kernel's own
 * parameters; hp the number of hidden parameters every clone carries after
 * them (0, or ORION_SPLIT_PARAMS: the split parameters of orion/rt.h), and
 * when hp > 0 the entry `<kernel>__orion_split` is the uncapped original with
 * those parameters.  Both default to 0 when absent.  dsm, last, lists every
 * version with a binary other than the original as tag:NNNNNN (six
 * digits, ORION_RECORD_DSM_DIGITS): the bytes of dynamic shared memory per
 * warp its frame takes in a launch (0: none).  OrionPass writes zeros;
 * orion-ptxas, which moves a version's frame there after assembling it,
 * writes the figure into the table in the cubin in place, the width
 * unchanged, so the table's layout and order stay as the pass made them.
 * Unknown keys are ignored by the parser, so the format can grow; the
 * leading "orion1" changes only on incompatible change.
 */
#ifndef ORION_RECORD_H
#define ORION_RECORD_H

#include <stddef.h>

#include "orion/select.h"
#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORION_RECORD_TABLE_PREFIX "__orion_records_"
/* The table's name: the prefix, 16 hex digits, NUL. */
#define ORION_RECORD_TABLE_NAME_MAX (sizeof ORION_RECORD_TABLE_PREFIX + 16)
#define ORION_CLONE_INFIX "__orion_"
#define ORION_RECORD_KERNEL_MAX 512
#define ORION_RECORD_DSM_DIGITS 6 /* dsm's figures: at most 999999 bytes per warp */

typedef struct orion_record {
  char kernel[ORION_RECORD_KERNEL_MAX];
  int sm;
  int max_live;
  int n_params;      /* np: the kernel's own parameters */
  int hidden_params; /* hp: 0 or ORION_SPLIT_PARAMS */
  orion_selection sel;
} orion_record;

/* Format into buf (capacity n, NUL-terminated).  ORION_ERR_RANGE if it does
 * not fit; buf is then an empty string. */
orion_status orion_record_format(const orion_record *rec, char *buf, size_t n);

/* Parse text produced by orion_record_format.  ORION_ERR_PARSE on anything
 * malformed; *rec is then zeroed. */
orion_status orion_record_parse(const char *text, orion_record *rec);

/* requires n >= ORION_RECORD_TABLE_NAME_MAX; the name of the record table of
 * the translation unit whose source file name is source (NULL: ""). */
void orion_record_table_name(const char *source, char *buf, size_t n);

/* requires recs[0..n) formatted records (orion_record_format).  The table
 * text (malloc'd, NUL-terminated): the records sorted by kernel name, each
 * followed by '\n'; NULL when out of memory or a text is not a record. */
char *orion_record_table_build(const char *const *recs, size_t n);

/* requires table: size bytes of a table (a NUL ends it early).  The line of
 * kernel's record (without its '\n', *len bytes), or NULL when the table has
 * none or is malformed.  O(log n) line probes. */
const char *orion_record_table_find(const char *table, size_t size, const char *kernel,
                                    size_t *len);

/* requires line: len bytes of one record.  The offset in line of the
 * ORION_RECORD_DSM_DIGITS digits of tag's dsm figure, or -1 when the
 * record lists none for tag. */
long orion_record_dsm_at(const char *line, size_t len, const char *tag);

/* requires table: size bytes of a table.  The line starting at pos: returns
 * pos with its length in *len, or (size_t)-1 past the last line.  The next
 * line starts at pos + *len + 1. */
size_t orion_record_table_next(const char *table, size_t size, size_t pos, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* ORION_RECORD_H */
