/* driver/cc_nvcc.c - nvcc's command line, translated for clang++.
 *
 * The handlers of nvcc's rows in orion-cc's option table (cc_args.c; each
 * row's text says what it maps to).  nvcc's values: "-opt=value" or "-opt
 * value"; list values split on commas as nvcc splits them.  Architectures:
 * -arch names the virtual architecture, -code the real ones that get code;
 * each -gencode clause is one such pair; clang++ gets --cuda-gpu-arch=sm_XX
 * for every architecture that gets code (clang embeds PTX for each too).
 * Contracts in cc_opt.h and cc.h.
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_opt.h"
#include "orion/occupancy.h"

/* ---- architectures ---- */

int cc_add_arch(cc *c, const char *name, int *added) {
  int sm;
  *added = 0;
  orion_status st = orion_arch_from_name(name, &sm);
  if (st != ORION_OK && st != ORION_ERR_UNSUPPORTED_ARCH) {
    drv_error("unknown GPU architecture '%s' (supported: %s)", name, orion_arch_supported_list());
    return 0;
  }
  char *sm_name = drv_has_prefix(name, "compute_") ? drv_xasprintf("sm_%s", name + 8)
                                                    : drv_xstrdup(name);
  for (size_t i = 0; i < c->archs.n; i++)
    if (strcmp(c->archs.v[i], sm_name) == 0) {
      free(sm_name);
      return 1;
    }
  if (st == ORION_ERR_UNSUPPORTED_ARCH)
    sv_push(&c->new_archs, sm_name);
  sv_push_owned(&c->archs, sm_name);
  *added = 1;
  return 1;
}

/* Add the architectures of a comma list (brackets and quotes ignored). */
static int add_arch_list(strvec *into, const char *list, const char *opt) {
  char *copy = drv_xstrdup(list);
  int ok = 1;
  for (char *save = NULL, *t = strtok_r(copy, ",[]\"", &save); t && ok;
       t = strtok_r(NULL, ",[]\"", &save)) {
    if (strcmp(t, "native") == 0 || drv_has_prefix(t, "all") || drv_has_prefix(t, "lto_")) {
      drv_error("nvcc option '%s' value '%s' is not supported: name the GPU architecture, "
                "e.g. -arch=sm_90", opt, t);
      ok = 0;
    } else if (!drv_has_prefix(t, "sm_") && !drv_has_prefix(t, "compute_")) {
      drv_error("unknown GPU architecture '%s' in '%s'", t, opt);
      ok = 0;
    } else {
      sv_push(into, t);
    }
  }
  free(copy);
  return ok;
}

int nv_arch(cc *c, const cc_arg *a) {
  return add_arch_list(&c->nv_archs, a->val, a->opt->name) ? CC_DROP : CC_ERR;
}

int nv_code(cc *c, const cc_arg *a) {
  return add_arch_list(&c->nv_codes, a->val, a->opt->name) ? CC_DROP : CC_ERR;
}

/* arch=compute_XX,code=sm_XX or code=[sm_XX,compute_XX]: the code list
 * gets code (the arch alone when there is none). */
int nv_gencode(cc *c, const cc_arg *a) {
  strvec arch, code;
  sv_init(&arch);
  sv_init(&code);
  char *copy = drv_xstrdup(a->val);
  int ok = 1, in_code = 0;
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && ok; t = strtok_r(NULL, ",", &save)) {
    if (drv_has_prefix(t, "arch=")) {
      in_code = 0;
      ok = add_arch_list(&arch, t + 5, a->opt->name);
    } else if (drv_has_prefix(t, "code=")) {
      in_code = 1;
      ok = add_arch_list(&code, t + 5, a->opt->name);
    } else if (in_code) {
      ok = add_arch_list(&code, t, a->opt->name);
    } else {
      drv_error("cannot read '%s %s': expected arch=compute_XX,code=sm_XX", a->opt->name, a->val);
      ok = 0;
    }
  }
  free(copy);
  const strvec *use = code.n ? &code : &arch;
  if (ok && !use->n) {
    drv_error("cannot read '%s %s': no architecture", a->opt->name, a->val);
    ok = 0;
  }
  for (size_t i = 0; ok && i < use->n; i++)
    sv_push(&c->nv_gen, use->v[i]);
  sv_free(&arch);
  sv_free(&code);
  return ok ? CC_DROP : CC_ERR;
}

/* ---- values ---- */

/* "true"/"false" -> 1/0; -1 (error printed) for anything else. */
static int bool_val(const cc_arg *a) {
  if (strcmp(a->val, "true") == 0)
    return 1;
  if (strcmp(a->val, "false") == 0)
    return 0;
  drv_error("invalid value '%s' for nvcc option '%s' (expected true or false)", a->val,
            a->opt->name);
  return -1;
}

/* Push each item of list (separated by commas, as nvcc splits it, or
 * blanks, as the shell nvcc runs its tools with would), preceded by prefix
 * if non-NULL; the items go to *also too if non-NULL. */
static void push_items(strvec *v, const char *prefix, const char *list, strvec *also) {
  char *copy = drv_xstrdup(list);
  for (char *save = NULL, *t = strtok_r(copy, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
    if (prefix)
      sv_push(v, prefix);
    sv_push(v, t);
    if (also)
      sv_push(also, t);
  }
  free(copy);
}

int nv_maxrregcount(cc *c, const cc_arg *a) {
  char *end;
  long n = strtol(a->val, &end, 10);
  if (!*a->val || *end || n < 1 || n > 255) {
    drv_error("invalid value '%s' for nvcc option '%s' (expected a register count, 1-255)",
              a->val, a->opt->name);
    return CC_ERR;
  }
  char *opt = drv_xasprintf("--maxrregcount=%ld", n);
  sv_push(&c->nv_ptxas, "-Xcuda-ptxas");
  sv_push(&c->nv_ptxas, opt);
  sv_push(&c->ptxas_user, opt);
  free(opt);
  return CC_DROP;
}

/* What nvcc's options map to waits for the compile it belongs to (clang
 * calls it unused elsewhere, an error under -Werror): nv_cuda for any
 * compile of .cu inputs, nv_device for one with a device side, nv_ptxas
 * for one that runs ptxas. */
static void device_flag(cc *c, const char *flag) {
  sv_push(&c->nv_device, "-Xarch_device");
  sv_push(&c->nv_device, flag);
}

/* a's mapping is for device code generation (not for a .ptx input). */
static void codegen_opt(cc *c, const cc_arg *a) { sv_push(&c->nv_codegen, a->opt->name); }

/* A true/false code-generation option: its value (1 or 0), recorded as a
 * code-generation option; -1 after the error for any other value. */
static int codegen_bool(cc *c, const cc_arg *a) {
  int b = bool_val(a);
  if (b >= 0)
    codegen_opt(c, a);
  return b;
}

int nv_fast_math(cc *c, const cc_arg *a) {
  codegen_opt(c, a);
  c->fast_math = 1;
  device_flag(c, "-ffast-math");
  device_flag(c, "-DORION_NVCC_FAST_MATH"); /* nvcc_compat.h: nvcc's intrinsics */
  sv_push(&c->nv_device, "-fcuda-flush-denormals-to-zero");
  return CC_DROP;
}

int nv_ftz(cc *c, const cc_arg *a) {
  int b = codegen_bool(c, a);
  if (b < 0)
    return CC_ERR;
  sv_push(&c->nv_device, b ? "-fcuda-flush-denormals-to-zero" : "-fno-cuda-flush-denormals-to-zero");
  return CC_DROP;
}

int nv_prec_div(cc *c, const cc_arg *a) {
  int b = codegen_bool(c, a);
  if (b < 0)
    return CC_ERR;
  sv_push(&c->nv_device, "-mllvm");
  sv_push(&c->nv_device, b ? "-nvptx-prec-divf32=2" : "-nvptx-prec-divf32=1");
  return CC_DROP;
}

int nv_prec_sqrt(cc *c, const cc_arg *a) {
  int b = codegen_bool(c, a);
  if (b < 0)
    return CC_ERR;
  c->prec_sqrt = b;
  return CC_DROP;
}

int cc_prec_sqrt(const cc *c) { return c->prec_sqrt >= 0 ? c->prec_sqrt : !c->fast_math; }

int nv_fmad(cc *c, const cc_arg *a) {
  int b = codegen_bool(c, a);
  if (b < 0)
    return CC_ERR;
  device_flag(c, b ? "-ffp-contract=fast" : "-ffp-contract=off");
  return CC_DROP;
}

int nv_rdc(cc *c, const cc_arg *a) {
  int b = bool_val(a);
  if (b < 0)
    return CC_ERR;
  c->gpu_rdc = b;
  sv_push(&c->user_args, b ? "-fgpu-rdc" : "-fno-gpu-rdc");
  return CC_DROP;
}

/* -dc: relocatable device code, compile only; -dw: whole-program, compile only. */
int nv_compile_rdc(cc *c, const cc_arg *a) {
  c->gpu_rdc = strcmp(a->opt->name, "-dc") == 0 || strcmp(a->opt->name, "--device-c") == 0;
  c->compile_only = 1;
  sv_push(&c->user_args, c->gpu_rdc ? "-fgpu-rdc" : "-fno-gpu-rdc");
  sv_push(&c->user_args, "-c");
  return CC_DROP;
}

int nv_lineinfo(cc *c, const cc_arg *a) {
  codegen_opt(c, a);
  device_flag(c, "-gline-tables-only");
  return CC_DROP;
}

int nv_device_debug(cc *c, const cc_arg *a) {
  codegen_opt(c, a);
  device_flag(c, "-g");
  device_flag(c, "--cuda-noopt-device-debug"); /* bare, the host side calls it unused */
  return CC_DROP;
}

/* clang++ is the host compiler: its options go to it as they are. */
int nv_xcompiler(cc *c, const cc_arg *a) {
  push_items(&c->user_args, NULL, a->val, NULL);
  return CC_DROP;
}

int nv_xptxas(cc *c, const cc_arg *a) {
  push_items(&c->nv_ptxas, "-Xcuda-ptxas", a->val, &c->ptxas_user);
  return CC_DROP;
}

int nv_xlinker(cc *c, const cc_arg *a) {
  push_items(&c->user_args, "-Xlinker", a->val, NULL);
  return CC_DROP;
}

int nv_res_usage(cc *c, const cc_arg *a) {
  (void)a;
  sv_push(&c->nv_ptxas, "-Xcuda-ptxas");
  sv_push(&c->nv_ptxas, "-v");
  sv_push(&c->ptxas_user, "-v");
  return CC_DROP;
}

/* nvcc's --Werror takes kinds; clang's -Werror is all-warnings. */
int nv_werror(cc *c, const cc_arg *a) {
  char *copy = drv_xstrdup(a->val);
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (strcmp(t, "all-warnings") == 0)
      sv_push(&c->user_args, "-Werror");
    else if (strcmp(t, "deprecated-declarations") == 0 || strcmp(t, "reorder") == 0)
      sv_pushf(&c->user_args, "-Werror=%s", t);
    else if (c->dry_run || c->verbose)
      fprintf(stderr, "# orion-cc: ignoring '%s %s': an nvcc diagnostic clang does not have\n",
              a->opt->name, t);
  }
  free(copy);
  return CC_DROP;
}

/* Accepted and dropped; -### and -v say why (the row's text). */
int nv_ignore(cc *c, const cc_arg *a) {
  if (c->dry_run || c->verbose) {
    fflush(stdout);
    fprintf(stderr, "# orion-cc: ignoring '%s%s%s': %s\n", a->spelled, a->separate ? " " : "",
            a->separate ? a->val : "", a->reason);
  }
  return CC_DROP;
}

int nv_ccbin(cc *c, const cc_arg *a) {
  if (!c->ccbin_noted)
    drv_note("ignoring '%s %s': clang++ compiles the host code", a->opt->name, a->val);
  c->ccbin_noted = 1;
  return CC_DROP;
}

int nv_std(cc *c, const cc_arg *a) {
  sv_pushf(&c->user_args, "-std=%s", a->val);
  return CC_DROP;
}

int nv_default_stream(cc *c, const cc_arg *a) {
  const char *v = a->val;
  if (strcmp(v, "null") == 0)
    v = "legacy"; /* nvcc: the same as legacy */
  if (strcmp(v, "legacy") != 0 && strcmp(v, "per-thread") != 0) {
    drv_error("invalid value '%s' for nvcc option '%s' (expected legacy, null or per-thread)",
              a->val, a->opt->name);
    return CC_ERR;
  }
  /* clang's driver passes -fgpu-default-stream on for HIP only */
  sv_push(&c->nv_cuda, "-Xclang");
  sv_pushf(&c->nv_cuda, "-fgpu-default-stream=%s", v);
  return CC_DROP;
}

int nv_cudart(cc *c, const cc_arg *a) {
  (void)c;
  if (strcmp(a->val, "shared") == 0)
    return CC_DROP; /* what orion-cc links */
  drv_error("nvcc option '%s %s' is not supported: orion-cc links the shared CUDA runtime "
            "(-cudart shared)", a->opt->name, a->val);
  return CC_ERR;
}

/* -ptx: device PTX (-S); -cubin: the device object (-c). */
int nv_device_output(cc *c, const cc_arg *a) {
  int ptx = strcmp(a->opt->name, "-ptx") == 0 || strcmp(a->opt->name, "--ptx") == 0;
  c->device_only = 1;
  if (ptx)
    c->assemble_only = 1;
  else
    c->compile_only = 1;
  c->nv_output = ptx ? 'p' : 'c';
  sv_push(&c->user_args, "--cuda-device-only");
  sv_push(&c->user_args, ptx ? "-S" : "-c");
  return CC_DROP;
}

int nv_unmapped(cc *c, const cc_arg *a) {
  (void)c;
  drv_error("nvcc option '%s' is not supported: %s", a->opt->name, a->reason);
  return CC_ERR;
}

/* ---- after parsing ---- */

/* nvcc names -ptx/-cubin output after the input: a.cu -> a.ptx / a.cubin. */
static void default_output(cc *c) {
  if (!c->nv_output || c->output || c->cuda_inputs.n != 1)
    return;
  const char *base = drv_basename(c->cuda_inputs.v[0]);
  const char *dot = strrchr(base, '.');
  int n = (int)(dot ? (size_t)(dot - base) : strlen(base));
  sv_push(&c->user_args, "-o");
  sv_push_owned(&c->user_args, drv_xasprintf("%.*s.%s", n, base, c->nv_output == 'p' ? "ptx" : "cubin"));
}

/* The architectures nvcc's options ask code for: each -gencode clause's,
 * and -code's (-arch's when there is no -code). */
static int nvcc_archs(cc *c) {
  const strvec *lists[2] = {&c->nv_gen, c->nv_codes.n ? &c->nv_codes : &c->nv_archs};
  int device = c->cuda_inputs.n || c->ptx_inputs.n;
  for (int l = 0; l < 2; l++)
    for (size_t i = 0; i < lists[l]->n; i++) {
      int added;
      if (!cc_add_arch(c, lists[l]->v[i], &added))
        return 0;
      if (added && device) /* a link of objects gets none: clang would call it unused */
        sv_pushf(&c->user_args, "--cuda-gpu-arch=%s", c->archs.v[c->archs.n - 1]);
      c->user_arch = 1;
    }
  return 1;
}

int cc_nvcc_finish(cc *c) {
  if (!nvcc_archs(c))
    return 0;
  if ((c->cuda_inputs.n || c->ptx_inputs.n) && !c->no_orion)
    for (size_t i = 0; i < c->new_archs.n; i++)
      drv_warning("%s is not in Orion's occupancy model (%s): passed to clang and ptxas as "
                  "given; Orion tunes its kernels with sm_90's limits",
                  c->new_archs.v[i], orion_arch_supported_list());
  default_output(c);
  return 1;
}

/* ---- rdc objects ---- */

static unsigned long rd(const unsigned char *p, int n) {
  unsigned long v = 0;
  for (int i = n - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* Whether the ELF64 little-endian object in b has a section named name. */
static int elf_has_section(const orion_strbuf *b, const char *name) {
  const unsigned char *p = (const unsigned char *)b->p;
  if (b->len < 64 || memcmp(p, "\177ELF\2\1", 6) != 0)
    return 0;
  unsigned long shoff = rd(p + 40, 8), shentsize = rd(p + 58, 2), shnum = rd(p + 60, 2),
                shstrndx = rd(p + 62, 2);
  if (shentsize < 64 || shstrndx >= shnum || shoff > b->len || shnum * shentsize > b->len - shoff)
    return 0;
  const unsigned char *strsh = p + shoff + shstrndx * shentsize;
  unsigned long stroff = rd(strsh + 24, 8), strsize = rd(strsh + 32, 8);
  if (stroff > b->len || strsize > b->len - stroff)
    return 0;
  size_t nl = strlen(name);
  for (unsigned long i = 0; i < shnum; i++) {
    unsigned long off = rd(p + shoff + i * shentsize, 4);
    if (off < strsize && strsize - off > nl && memcmp(p + stroff + off, name, nl + 1) == 0)
      return 1;
  }
  return 0;
}

int cc_inputs_have_rdc(const cc *c) {
  for (size_t i = 0; i < c->inputs.n; i++) {
    const char *f = c->inputs.v[i];
    if (!drv_has_suffix(f, ".o"))
      continue;
    orion_strbuf b;
    if (drv_read_file(f, &b) != 0)
      continue; /* validation names unreadable inputs */
    int rdc = elf_has_section(&b, ".llvm.offloading");
    orion_sb_free(&b);
    if (rdc)
      return 1;
  }
  return 0;
}
