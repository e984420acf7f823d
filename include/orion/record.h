/* orion/record.h - the decision record the compiler leaves for the runtime.
 *
 * OrionPass stores one record per kernel in the device module as a
 * NUL-terminated string in global `__orion_rec_<kernel>` (addrspace 1,
 * externally visible, in llvm.used), so it survives into the cubin where
 * the runtime reads it with cuModuleGetGlobal, and tools read it from the
 * PTX or cubin.  The text form is one line:
 *
 *   orion1;k=<kernel>;sm=90;dir=inc;ml=57;thr=32;blk=256;bk=0;smem=0;
 *   v=orig:o:0:40,r32:c:32:64,p32:f:0:32;np=2;hp=6
 *
 * where each version is tag:role:max_regs:target_warps (role letters o, c, s,
 * f for original, conservative, step, failsafe; tags starting with 'p' are
 * runtime padding versions with no binary).  Clones are entries named
 * `<kernel>__orion_<tag>` (orion_clone_name, orion/demangle.h: the tag goes
 * inside a mangled kernel's identifier).  np is the number of the kernel's own
 * parameters; hp the number of hidden parameters every clone carries after
 * them (0, or ORION_SPLIT_PARAMS: the split parameters of orion/rt.h), and
 * when hp > 0 the entry `<kernel>__orion_split` is the uncapped original with
 * those parameters.  Both default to 0 when absent.  Unknown keys are ignored by the parser, so the
 * format can grow; the leading "orion1" changes only on incompatible change.
 */
#ifndef ORION_RECORD_H
#define ORION_RECORD_H

#include <stddef.h>

#include "orion/select.h"
#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORION_RECORD_PREFIX "__orion_rec_"
#define ORION_CLONE_INFIX "__orion_"
#define ORION_RECORD_KERNEL_MAX 512

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

#ifdef __cplusplus
}
#endif
#endif /* ORION_RECORD_H */
