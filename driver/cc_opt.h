/* driver/cc_opt.h - the row type of orion-cc's option table (cc_args.c) and
 * the nvcc handlers the table names (cc_nvcc.c).
 *
 * A handler gets the matched option and returns CC_PASS (the argument(s) go
 * to clang++ unchanged), CC_DROP (consumed: the handler pushed what clang++
 * gets, if anything) or CC_ERR (it printed an error naming the option).
 */
#ifndef ORION_DRIVER_CC_OPT_H
#define ORION_DRIVER_CC_OPT_H

#include "cc.h"

typedef enum cc_opt_kind {
  K_FLAG,               /* exactly the name */
  K_JOINED,             /* the name followed by the value (possibly empty) */
  K_SEPARATE,           /* exactly the name; the value is the next argument */
  K_JOINED_OR_SEPARATE, /* clang: -Ifoo or -I foo */
  K_EQ_OR_SEPARATE,     /* nvcc: -arch=sm_90 or -arch sm_90 */
} cc_opt_kind;

enum { CC_ERR = -1, CC_DROP = 0, CC_PASS = 1 };

struct cc_arg;
typedef int (*cc_opt_fn)(cc *c, const struct cc_arg *a);

/* One row of the table: a spelling, how it takes its value, its handler
 * (NULL: pass through), what a missing value is called in errors, the
 * spelling it is an alias of (the walker then acts as if that was given),
 * and for nvcc's rows what it maps to (documentation; the reason for
 * rows that are ignored or refused). */
typedef struct cc_opt {
  const char *name;
  cc_opt_kind kind;
  cc_opt_fn fn;
  const char *meta;
  const char *alias;
  const char *help;
} cc_opt;

/* One matched option: how it was spelled and its value (NULL for flags). */
typedef struct cc_arg {
  const char *spelled; /* the argument as given */
  const cc_opt *opt;   /* its row (for an alias: the row it stands for) */
  const char *val;
  int separate; /* the value was the next argument */
  const char *reason; /* the row's text, or for a row whose text is "as <spelling>" that row's */
} cc_arg;

/* ---- nvcc's options (cc_nvcc.c); each contract is its table row's text ---- */
int nv_arch(cc *c, const cc_arg *a);
int nv_code(cc *c, const cc_arg *a);
int nv_gencode(cc *c, const cc_arg *a);
int nv_maxrregcount(cc *c, const cc_arg *a);
int nv_fast_math(cc *c, const cc_arg *a);
int nv_ftz(cc *c, const cc_arg *a);
int nv_prec_div(cc *c, const cc_arg *a);
int nv_prec_sqrt(cc *c, const cc_arg *a);
int nv_fmad(cc *c, const cc_arg *a);
int nv_rdc(cc *c, const cc_arg *a);
int nv_compile_rdc(cc *c, const cc_arg *a);
int nv_xcompiler(cc *c, const cc_arg *a);
int nv_xptxas(cc *c, const cc_arg *a);
int nv_xlinker(cc *c, const cc_arg *a);
int nv_ignore(cc *c, const cc_arg *a);
int nv_ccbin(cc *c, const cc_arg *a);
int nv_std(cc *c, const cc_arg *a);
int nv_default_stream(cc *c, const cc_arg *a);
int nv_cudart(cc *c, const cc_arg *a);
int nv_device_output(cc *c, const cc_arg *a);
int nv_unmapped(cc *c, const cc_arg *a);
int nv_res_usage(cc *c, const cc_arg *a);
int nv_lineinfo(cc *c, const cc_arg *a);
int nv_device_debug(cc *c, const cc_arg *a);
int nv_werror(cc *c, const cc_arg *a);

/* After parsing: the architectures from -arch/-code, unknown-architecture
 * warnings, rdc objects in a link.  Returns 1, or 0 after an error. */
int cc_nvcc_finish(cc *c);
/* Record one GPU architecture (sm_XX or compute_XX; clang gets sm_XX);
 * *added: it was not recorded before.  Returns 1, or 0 after an error
 * naming it. */
int cc_add_arch(cc *c, const char *name, int *added);

#endif /* ORION_DRIVER_CC_OPT_H */
