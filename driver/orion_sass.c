/* orion-sass - inspect and rewrite CUDA cubins (include/orion/cubin.h).
 *
 *   orion-sass info <cubin>             arch, kernels and functions with their
 *                                       registers, frame, stack, shared memory,
 *                                       max threads, and each kernel's EIATTRs
 *   orion-sass dump <cubin>             sections, symbols, relocations and every
 *                                       .nv.info record
 *   orion-sass decode <cubin>           per function, every instruction's decoded
 *                                       fields (sass/codec/decode.c; sm_80, sm_86,
 *                                       sm_89, sm_90)
 *   orion-sass frame <cubin>            per function: blocks, calls, R1 setup
 *                                       and moves, frame slots, unsafe facts
 *                                       (sass/rewrite/frame.c, include/orion/sassrw.h;
 *                                       sm_80, sm_86, sm_89, sm_90, as is
 *                                       rewrite --smem-frame)
 *   orion-sass rewrite <in> -o <out> [--smem-frame [--no-dynamic-smem]
 *                                     [--block N] [--layout L]]
 *                                       read, rewrite, write atomically
 *
 * rewrite without --smem-frame is the IDENTITY: the cubin is parsed (every
 * check of the reader applies) and written back unchanged, byte for byte.
 * With --smem-frame each kernel's local-memory frame is moved to shared
 * memory where sass/rewrite/rewrite.c can (one line per kernel on stdout says what
 * was done or why not).  Inputs must be bare cubins: a
 * fatbinary or a host object is refused with a hint to extract the cubins
 * with 'cuobjdump -xelf all'.  Errors: one line "orion-sass: error:
 * <file>: <problem>" on stderr, exit 1 (2 for a usage error); no output
 * file is created or changed on error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/cubin.h"
#include "orion/sass.h"
#include "orion/sassrw.h"

static const char *prog = "orion-sass";

static void usage(FILE *f) {
  fprintf(f,
          "usage: orion-sass COMMAND ...\n"
          "  info <cubin>            architecture; per kernel and function: registers,\n"
          "                          frame, stack, shared memory, max threads, EIATTRs\n"
          "  dump <cubin>            sections, symbols, relocations, .nv.info records\n"
          "  decode <cubin>          per function, each instruction's decoded fields:\n"
          "                          opcode, class, guard, registers written/read,\n"
          "                          memory operand, constant, immediate, target\n"
          "                          (sm_80, sm_86, sm_89, sm_90)\n"
          "  frame <cubin>           per function: basic blocks, calls, R1 setup and\n"
          "                          moves, R1-relative frame slots, unsafe facts\n"
          "                          (frame and rewrite --smem-frame: the same four)\n"
          "  rewrite <in> -o <out> [--smem-frame [--no-dynamic-smem] [--block N]\n"
          "                        [--layout auto|ptxas|sum|cstack|moves [--min-heights]]\n"
          "                        [--granule auto|split|wide]\n"
          "                        [--smem-limit BYTES] [--partial [--reg-limit N]]\n"
          "                        [--colour] [--dynamic [--warp-limit BYTES]]]\n"
          "                          parse and write back; without --smem-frame the\n"
          "                          identity (byte-identical output); with it, move\n"
          "                          each kernel's local-memory frame to shared memory\n"
          "                          where safe (--no-dynamic-smem: the caller asserts\n"
          "                          no kernel is launched with dynamic shared memory;\n"
          "                          --block N: size the region of a kernel without\n"
          "                          launch bounds for N threads and add them as its\n"
          "                          EIATTR_MAX_THREADS; --layout: where the frame slots\n"
          "                          of the kernel and its callees go: ptxas's frame,\n"
          "                          the sum of the functions' frames, or orion-ra's\n"
          "                          compressible stack with no moves (cstack) or with\n"
          "                          moves before and restores after calls (moves);\n"
          "                          auto, the default, takes the smallest (moves only\n"
          "                          when strictly smaller); --min-heights: moves\n"
          "                          compresses every call to its live slots (the paper's\n"
          "                          rule) rather than as little as the region allows;\n"
          "                          --granule: 4-byte slots with wider\n"
          "                          accesses split into 4-byte ones (bank-conflict free\n"
          "                          for 4-byte accesses), or slots of the widest access;\n"
          "                          auto, the default, splits when 4-byte accesses\n"
          "                          outnumber wider ones); --smem-limit: the end of\n"
          "                          static shared memory the region may reach (default\n"
          "                          and at most 48 KB); --partial: when the region does\n"
          "                          not fit, the slots with the most estimated accesses\n"
          "                          (loop depth) that fit go on chip, the rest stay in\n"
          "                          local memory (the on-chip part through a register\n"
          "                          of its own: the count may rise by one within its\n"
          "                          granule of 8, or up to --reg-limit N); --colour:\n"
          "                          cstack and moves give\n"
          "                          slots never live together one place (orion-ra's\n"
          "                          colourer); the layouts line gives the regions\n"
          "                          with and without it where they differ;\n"
          "                          --dynamic: the region goes to the launch's dynamic\n"
          "                          shared memory, warp by warp, for any block size (the\n"
          "                          launch must bring ceil(threads/32) x the bytes per\n"
          "                          warp the output gives; --warp-limit: at most that\n"
          "                          many per warp, what --partial fits in);\n"
          "                          the output is written to a temporary file and renamed\n"
          "  --help                  this text\n"
          "Inputs are bare cubins (ELF, EM_CUDA); extract them from a fatbinary or an\n"
          "executable with 'cuobjdump -xelf all <file>'.\n");
}

static const char *layout_nm(int i) { return orion_sassrw_layout_name((orion_sassrw_layout)i); }
static const char *granule_nm(int i) { return orion_sassrw_granule_name((orion_sassrw_granule)i); }

/* The number v of option opt (strtol base: 0 also reads 0x...) in 1..hi,
 * or -1 after an error saying what opt wants. */
static long number_arg(const char *opt, const char *v, int base, long hi, const char *unit) {
  char *end;
  long b = strtol(v, &end, base);
  if (*v && !*end && b >= 1 && b <= hi)
    return b;
  fprintf(stderr, "%s: error: %s wants 1..%ld %s, not '%s'\n", prog, opt, hi, unit, v);
  return -1;
}

/* rewrite's options that take a number: its name, strtol base, largest
 * value and unit (number_arg), where it goes, and whether it is one of the
 * layout options that need --smem-frame. */
typedef struct numeric_opt {
  const char *name;
  int base;
  long hi;
  const char *unit;
  uint32_t *dst;
  int layout;
} numeric_opt;

/* If argv[*i] is one of the n options t with a value after it: 1 with the
 * value stored (and *i past it, *layout_set raised for layout options),
 * -1 after an error naming it; 0 when it is none of them. */
static int numeric_option(const numeric_opt *t, size_t n, int argc, char **argv, int *i, int *layout_set) {
  for (size_t k = 0; k < n; k++) {
    if (strcmp(argv[*i], t[k].name) != 0 || *i + 1 >= argc)
      continue;
    long v = number_arg(t[k].name, argv[++*i], t[k].base, t[k].hi, t[k].unit);
    if (v < 0)
      return -1;
    *t[k].dst = (uint32_t)v;
    *layout_set |= t[k].layout;
    return 1;
  }
  return 0;
}

/* The index of v among name(0), name(1), ... (NULL ends them), or -1
 * after an error that lists the choices. */
static int pick(const char *opt, const char *v, const char *(*name)(int), const char *choices) {
  for (int i = 0; name(i); i++)
    if (!strcmp(v, name(i)))
      return i;
  fprintf(stderr, "%s: error: %s wants %s, not '%s'\n", prog, opt, choices, v);
  return -1;
}

static int fail(const char *file, const char *msg) {
  fprintf(stderr, "%s: error: %s: %s\n", prog, file, msg);
  return 1;
}

/* The frame analysis and rewrite refuse the architectures the decoder
 * does not know. */
static int fail_status(const char *path, const orion_cubin *c, orion_status st) {
  if (st != ORION_ERR_UNSUPPORTED_ARCH)
    return fail(path, orion_strerror(st));
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  char msg[160];
  snprintf(msg, sizeof msg,
           "sm_%u: the frame analysis and rewrite support sm_80, sm_86, sm_89 and sm_90",
           h.sm);
  return fail(path, msg);
}

static orion_cubin *load(const char *path) {
  orion_cubin *c = NULL;
  orion_cubin_diag d;
  if (orion_cubin_read_file(path, &c, &d) != ORION_OK) {
    fail(path, d.msg);
    return NULL;
  }
  return c;
}

static void print_attr_name(unsigned attr) {
  const char *n = orion_eiattr_name(attr);
  if (n)
    printf("%s", n);
  else
    printf("EIATTR_0x%02x(unknown)", attr);
}

static void print_i64(const char *label, int64_t v) {
  if (v < 0)
    printf(" %s -", label);
  else
    printf(" %s %" PRId64, label, v);
}

static void print_rec(const orion_eiattr_rec *r) {
  printf("  [0x%04zx] ", r->offset);
  print_attr_name(r->attr);
  const char *f = orion_eifmt_name(r->fmt);
  printf(" %s", f ? f : "?");
  if (r->fmt == ORION_EIFMT_SVAL) {
    printf(" size %u:", r->value);
    for (unsigned k = 0; k < r->value; k++)
      printf("%s%02x", k % 4 ? "" : " ", r->payload[k]);
  } else {
    printf(" 0x%x", r->value);
  }
  printf("\n");
}

static int cmd_info(const char *path) {
  orion_cubin *c = load(path);
  if (!c)
    return 1;
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  printf("%s: sm_%u, %s, ELF ABI version %u, e_flags 0x%x\n", path, h.sm,
         h.type == 1 ? "relocatable (ET_REL)" : h.type == 2 ? "executable (ET_EXEC)" : "other type", h.abi_version,
         h.flags);
  size_t nf = orion_cubin_func_count(c);
  for (int kernels = 1; kernels >= 0; kernels--) {
    for (size_t i = 0; i < nf; i++) {
      orion_cubin_func f;
      orion_cubin_get_func(c, i, &f);
      if (f.is_kernel != kernels)
        continue;
      orion_cubin_section t;
      orion_cubin_get_section(c, f.text, &t);
      printf("%s %s: %s+0x%" PRIx64 " size 0x%" PRIx64 ";", kernels ? "kernel" : "function", f.name, t.name,
             f.value, f.size);
      print_i64("regs", f.regcount);
      print_i64("frame", f.frame_size);
      print_i64("min-stack", f.min_stack_size);
      print_i64("max-stack", f.max_stack_size);
      if (kernels) {
        printf(" smem %" PRIu64, f.shared_size);
        print_i64("maxreg", f.maxreg_count);
        if (f.max_threads[0] >= 0)
          printf(" max-threads %" PRId64 "x%" PRId64 "x%" PRId64, f.max_threads[0], f.max_threads[1],
                 f.max_threads[2]);
        else
          printf(" max-threads -");
        if (f.reqntid[0] >= 0)
          printf(" reqntid %" PRId64 "x%" PRId64 "x%" PRId64, f.reqntid[0], f.reqntid[1], f.reqntid[2]);
        printf(" exits %zu s2rctaid %zu", f.n_exit, f.n_s2rctaid);
      }
      if (f.regs_shinfo)
        printf(" sh_info-regs %u", f.regs_shinfo);
      printf("\n");
      if (kernels && f.nvinfo) {
        printf("  eiattrs:");
        for (size_t k = 0; k < orion_cubin_nvinfo_count(c, f.nvinfo); k++) {
          orion_eiattr_rec r;
          orion_cubin_nvinfo_get(c, f.nvinfo, k, &r);
          printf(" ");
          print_attr_name(r.attr);
        }
        printf("\n");
      }
    }
  }
  orion_cubin_free(c);
  return 0;
}

static const char *sht_name(uint32_t t) {
  switch (t) {
  case 0: return "NULL";
  case 1: return "PROGBITS";
  case 2: return "SYMTAB";
  case 3: return "STRTAB";
  case 4: return "RELA";
  case 7: return "NOTE";
  case 8: return "NOBITS";
  case 9: return "REL";
  case 0x70000000: return "CUDA_INFO";
  case 0x70000001: return "CUDA_CALLGRAPH";
  case 0x70000086: return "CUDA_COMPAT";
  default: return NULL;
  }
}

static int cmd_dump(const char *path) {
  orion_cubin *c = load(path);
  if (!c)
    return 1;
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  printf("%s: sm_%u type %u abi %u osabi 0x%x e_flags 0x%x\n", path, h.sm, h.type, h.abi_version, h.osabi, h.flags);
  size_t ns = orion_cubin_section_count(c);
  printf("sections (%zu):\n  idx type             flags    offset   size     link info     align entsize name\n", ns);
  for (size_t i = 0; i < ns; i++) {
    orion_cubin_section s;
    orion_cubin_get_section(c, i, &s);
    const char *tn = sht_name(s.type);
    char tb[16];
    if (!tn) {
      snprintf(tb, sizeof tb, "0x%x", s.type);
      tn = tb;
    }
    printf("  %3zu %-16s %-8" PRIx64 " %-8" PRIx64 " %-8" PRIx64 " %-4u 0x%-6x %-5" PRIu64 " %-7" PRIu64 " %s\n", i,
           tn, s.flags, s.offset, s.size, s.link, s.info, s.addralign, s.entsize, s.name);
  }
  size_t nsym = orion_cubin_symbol_count(c);
  printf("symbols (%zu):\n  idx value    size     type bind other shndx name\n", nsym);
  for (size_t i = 0; i < nsym; i++) {
    orion_cubin_symbol s;
    orion_cubin_get_symbol(c, i, &s);
    printf("  %3zu %-8" PRIx64 " %-8" PRIx64 " %-4u %-4u 0x%02x  %-5u %s\n", i, s.value, s.size, s.type, s.bind,
           s.other, s.shndx, s.name);
  }
  for (size_t i = 0; i < ns; i++) {
    size_t nr = orion_cubin_reloc_count(c, i);
    if (!nr)
      continue;
    orion_cubin_section s;
    orion_cubin_get_section(c, i, &s);
    printf("relocations %s (%zu):\n", s.name, nr);
    for (size_t k = 0; k < nr; k++) {
      orion_cubin_reloc r;
      orion_cubin_get_reloc(c, i, k, &r);
      orion_cubin_symbol sym = {.name = "?"};
      orion_cubin_get_symbol(c, r.sym, &sym);
      printf("  0x%-8" PRIx64 " type %-3u sym %-3u %s%+" PRId64 "\n", r.offset, r.type, r.sym, sym.name, r.addend);
    }
  }
  for (size_t i = 0; i < ns; i++) {
    if (!orion_cubin_is_nvinfo(c, i))
      continue;
    orion_cubin_section s;
    orion_cubin_get_section(c, i, &s);
    size_t nr = orion_cubin_nvinfo_count(c, i);
    printf("%s (%zu records):\n", s.name, nr);
    for (size_t k = 0; k < nr; k++) {
      orion_eiattr_rec r;
      orion_cubin_nvinfo_get(c, i, k, &r);
      print_rec(&r);
    }
  }
  orion_cubin_free(c);
  return 0;
}

/* One decoded register operand: R2:R3, !P0, UR4(implicit); zero registers
 * (neither read nor written) are left out.  label goes first once. */
static void print_reg(const orion_sass_reg *g, const char **label) {
  static const char *const file[] = {"R", "UR", "P", "UP", "B"};
  int zero = (g->file == ORION_SASS_R && g->num == ORION_SASS_RZ) ||
             (g->file == ORION_SASS_UR && g->num == ORION_SASS_URZ) ||
             ((g->file == ORION_SASS_P || g->file == ORION_SASS_UP) && g->num == ORION_SASS_PT);
  if ((zero && g->field != 0xff) || g->file > ORION_SASS_B)
    return;
  printf("%s", *label);
  *label = "";
  if (g->field == 0xff) {
    printf(" PR");
    return;
  }
  printf(" %s%s%u", g->neg ? "!" : "", file[g->file], g->num);
  if (g->width > 1)
    printf(":%s%u", file[g->file], g->num + g->width - 1u);
  if (g->implicit)
    printf("(implicit)");
}

static void print_insn(uint64_t at, const orion_sass_insn *x) {
  printf("  /*%04" PRIx64 "*/ ", at);
  if (x->guard != ORION_SASS_PT || x->guard_neg)
    printf("@%s%s%u ", x->guard_neg ? "!" : "", x->guard_file == ORION_SASS_UP ? "UP" : "P", x->guard);
  printf("%s %s", orion_sass_op_name(x->op), orion_sass_class_name((orion_sass_class)x->cls));
  if (x->space != ORION_SASS_SPACE_NONE)
    printf(".%s", orion_sass_space_name((orion_sass_space)x->space));
  for (int def = 1; def >= 0; def--) {
    const char *label = def ? " def" : " use";
    for (unsigned i = 0; i < x->nregs; i++)
      if (x->regs[i].def == def)
        print_reg(&x->regs[i], &label);
  }
  if (x->has_mem)
    printf(" mem %s0x%x %u bytes", x->mem_off < 0 ? "-" : "+",
           x->mem_off < 0 ? 0u - (unsigned)x->mem_off : (unsigned)x->mem_off, x->mem_bytes);
  if (x->has_cbank)
    printf(" c[0x%x][0x%x]", x->cbank, (unsigned)x->cbank_off);
  if (x->has_imm)
    printf(" imm 0x%x", x->imm);
  if (x->has_target)
    printf(" -> 0x%04" PRIx64, (uint64_t)((int64_t)at + 16 + x->target));
  printf("\n");
}

/* Every function's instructions, decoded for the cubin's architecture. */
static int cmd_decode(const char *path) {
  orion_cubin *c = load(path);
  if (!c)
    return 1;
  orion_cubin_header h;
  orion_cubin_get_header(c, &h);
  if (!orion_sass_arch_supported(h.sm)) {
    char msg[96];
    snprintf(msg, sizeof msg, "sm_%u: the decoder knows sm_80, sm_86, sm_89 and sm_90", h.sm);
    orion_cubin_free(c);
    return fail(path, msg);
  }
  printf("%s: sm_%u\n", path, h.sm);
  for (size_t i = 0; i < orion_cubin_func_count(c); i++) {
    orion_cubin_func f;
    const unsigned char *code;
    size_t size, unknown = 0;
    orion_cubin_get_func(c, i, &f);
    if (orion_cubin_func_text(c, i, &code, &size) != ORION_OK) {
      orion_cubin_free(c);
      return fail(path, "a function symbol runs past its section");
    }
    printf("%s %s: %zu instructions\n", f.is_kernel ? "kernel" : "function", f.name, size / 16);
    for (size_t at = 0; at + 16 <= size; at += 16) {
      orion_sass_insn x;
      orion_sass_word w = orion_sass_word_load(code + at);
      if (orion_sass_decode_arch(w, h.sm, &x) == ORION_OK) {
        print_insn(f.value + at, &x);
      } else {
        unknown++;
        printf("  /*%04" PRIx64 "*/ ? opcode 0x%03x (not in the sm_%u table)\n", f.value + at,
               (unsigned)(w.lo & 0xfff), h.sm);
      }
    }
    if (unknown)
      printf("  %zu unknown\n", unknown);
  }
  orion_cubin_free(c);
  return 0;
}

/* The rewrite hook.  o == NULL: the identity (nothing is changed, so the
 * written cubin equals the input byte for byte).  Otherwise every kernel
 * goes through orion_sassrw_rewrite_kernel (sass/rewrite/rewrite.c), which leaves
 * it unchanged when it cannot move its frame; one line per kernel on
 * stdout.  Returns 0 on success, else prints one error line naming path. */
static int rewrite_cubin(orion_cubin *c, const char *path, const orion_sassrw_opts *o) {
  if (!o)
    return 0;
  orion_sassrw *a = NULL;
  orion_status st = orion_sassrw_analyze(c, &a);
  if (st != ORION_OK)
    return fail_status(path, c, st);
  int rc = 0;
  for (size_t i = 0; i < orion_sassrw_count(a) && rc == 0; i++) {
    const orion_sassrw_func *f = orion_sassrw_get(a, i);
    if (!f->is_kernel)
      continue;
    orion_sassrw_result r;
    st = orion_sassrw_rewrite_kernel(c, a, i, o, &r);
    if (st != ORION_OK)
      rc = fail(path, r.msg[0] ? r.msg : orion_strerror(st));
    else
      printf("%s: %s\n", f->name, r.msg);
    if (st == ORION_OK && r.layouts_known) {
      printf("  layouts (%zu function%s):", r.functions, r.functions == 1 ? "" : "s");
      for (int l = 0; l < 4; l++) {
        const char *nm = orion_sassrw_layout_name((orion_sassrw_layout)(l + 1));
        if (r.layout_bytes[l] && r.other_bytes[l] && r.other_bytes[l] != r.layout_bytes[l])
          printf("%s %s %u B/thread (%s %u)", l ? ";" : "", nm, r.layout_bytes[l],
                 r.coloured ? "uncoloured" : "coloured", r.other_bytes[l]);
        else if (r.layout_bytes[l])
          printf("%s %s %u B/thread", l ? ";" : "", nm, r.layout_bytes[l]);
        else
          printf("%s %s invalid (%s)", l ? ";" : "", nm, r.layout_why[l]);
      }
      printf("\n");
    }
    if (st == ORION_OK && r.rewritten) {
      char how[160] = "";
      if (r.partial)
        snprintf(how, sizeof how, " (on chip at R%u, local at R1, %u registers)", r.base_reg, r.regcount);
      if (r.dynamic)
        snprintf(how + strlen(how), sizeof how - strlen(how),
                 "; dynamic, %u B/warp at the end of the dynamic part (from 0x%x)", r.warp_bytes, r.region_off);
      printf("  placement: on chip %u slots, %u B/thread; local %u slots, %u B/thread (%zu accesses)%s%s\n",
             r.slots_on_chip, r.bytes_on_chip, r.slots_local, r.bytes_local, r.local_accesses,
             r.partial ? "; partial" : "", how);
    }
  }
  orion_sassrw_free(a);
  return rc;
}

static int cmd_frame(const char *path) {
  orion_cubin *c = load(path);
  if (!c)
    return 1;
  orion_sassrw *a = NULL;
  orion_status st = orion_sassrw_analyze(c, &a);
  if (st != ORION_OK) {
    int rc = fail_status(path, c, st);
    orion_cubin_free(c);
    return rc;
  }
  for (size_t i = 0; i < orion_sassrw_count(a); i++) {
    const orion_sassrw_func *f = orion_sassrw_get(a, i);
    printf("%s %s: %zu insns, %zu blocks, %zu edges; %s\n", f->is_kernel ? "kernel" : "function", f->name,
           f->n_insns, f->n_blocks, f->n_edges, f->safe ? "safe" : "UNSAFE");
    if (!f->safe)
      printf("  unsafe: %s\n", f->reason);
    if (f->r1_init_at >= 0)
      printf("  R1: %s c[0x0][0x%lx] at +0x%" PRIx64 ";", orion_sass_op_name((orion_sass_op)f->r1_init_op), f->r1_init_cbank,
             (uint64_t)f->r1_init_at);
    else
      printf("  R1: not loaded here;");
    printf(" entry moves %+" PRId64 ", %zu moves%s\n", f->r1_entry_delta, f->n_r1_moves,
           f->r1_moves_outside_entry ? " (some after the entry block)" : "");
    printf("  frame: %zu local accesses, %zu slots, %u bytes, widest %u%s%s\n", f->n_local, f->n_slots,
           f->frame_bytes, f->max_access, f->subword ? ", sub-word" : "", f->misaligned ? ", misaligned" : "");
    if (f->n_slots) {
      printf("  slots:");
      for (size_t k = 0; k < f->n_slots; k++)
        printf(" %d:%u", f->slots[k].off, f->slots[k].bytes);
      printf("\n");
    }
    printf("  calls: %zu", f->n_calls);
    for (size_t k = 0; k < f->n_callees; k++) {
      const orion_sassrw_func *g = orion_sassrw_get(a, f->callees[k]);
      printf("%s%s", k ? ", " : " -> ", g ? g->name : "?");
    }
    printf("%s\n", f->shared_access ? "; accesses shared memory" : "");
    printf("  global loads: %zu\n", f->n_global_loads);
  }
  orion_sassrw_free(a);
  orion_cubin_free(c);
  return 0;
}

static int cmd_rewrite(const char *in, const char *out, const orion_sassrw_opts *o) {
  orion_cubin *c = load(in);
  if (!c)
    return 1;
  int rc = rewrite_cubin(c, in, o);
  if (rc == 0) {
    orion_cubin_diag d;
    if (orion_cubin_write_file(c, out, &d) != ORION_OK)
      rc = fail(out, d.msg);
  }
  orion_cubin_free(c);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "info") || !strcmp(cmd, "dump") || !strcmp(cmd, "frame") || !strcmp(cmd, "decode")) {
    if (argc != 3 || argv[2][0] == '-') {
      fprintf(stderr, "%s: error: '%s' takes one cubin\n", prog, cmd);
      return 2;
    }
    return cmd[0] == 'i'              ? cmd_info(argv[2])
           : !strcmp(cmd, "dump")     ? cmd_dump(argv[2])
           : !strcmp(cmd, "decode")   ? cmd_decode(argv[2])
                                      : cmd_frame(argv[2]);
  }
  if (!strcmp(cmd, "rewrite")) {
    const char *in = NULL, *out = NULL;
    orion_sassrw_opts opts = {0};
    int smem = 0, layout_set = 0, granule_set = 0, num;
    const numeric_opt nums[] = {
        {"--warp-limit", 0, 232448, "bytes", &opts.warp_limit, 1},
        {"--smem-limit", 0, 0xc000, "bytes", &opts.smem_limit, 1},
        {"--reg-limit", 10, 255, "registers", &opts.reg_limit, 1},
        {"--block", 10, 1024, "threads", &opts.block, 0},
    };
    for (int i = 2; i < argc; i++) {
      if (!strcmp(argv[i], "-o") && i + 1 < argc)
        out = argv[++i];
      else if (!strcmp(argv[i], "--smem-frame"))
        smem = 1;
      else if (!strcmp(argv[i], "--no-dynamic-smem"))
        opts.no_dynamic_smem = 1;
      else if (!strcmp(argv[i], "--colour"))
        opts.colour = layout_set = 1;
      else if (!strcmp(argv[i], "--partial"))
        opts.partial = layout_set = 1;
      else if (!strcmp(argv[i], "--dynamic"))
        opts.dynamic = layout_set = 1;
      else if ((num = numeric_option(nums, sizeof nums / sizeof *nums, argc, argv, &i, &layout_set)) != 0) {
        if (num < 0)
          return 2;
      } else if (!strcmp(argv[i], "--min-heights"))
        opts.min_heights = layout_set = 1;
      else if (!strcmp(argv[i], "--layout") && i + 1 < argc) {
        int l = pick("--layout", argv[++i], layout_nm, "auto, ptxas, sum, cstack or moves");
        if (l < 0)
          return 2;
        opts.layout = (orion_sassrw_layout)l;
        layout_set = 1;
      } else if (!strcmp(argv[i], "--granule") && i + 1 < argc) {
        int g = pick("--granule", argv[++i], granule_nm, "auto, split or wide");
        if (g < 0)
          return 2;
        opts.granule = (orion_sassrw_granule)g;
        granule_set = 1;
      }
      else if (argv[i][0] != '-' && !in)
        in = argv[i];
      else {
        fprintf(stderr, "%s: error: rewrite: unexpected argument '%s'\n", prog, argv[i]);
        return 2;
      }
    }
    if (!in || !out) {
      fprintf(stderr, "%s: error: usage: orion-sass rewrite <in> -o <out>\n", prog);
      return 2;
    }
    if ((opts.no_dynamic_smem || opts.block || layout_set || granule_set) && !smem) {
      fprintf(stderr,
              "%s: error: --no-dynamic-smem, --block, --layout, --min-heights, --granule, --partial, "
              "--smem-limit, --reg-limit, --colour, --dynamic and --warp-limit need --smem-frame\n",
              prog);
      return 2;
    }
    if (opts.warp_limit && !opts.dynamic) {
      fprintf(stderr, "%s: error: --warp-limit needs --dynamic\n", prog);
      return 2;
    }
    if (opts.smem_limit && opts.dynamic) {
      fprintf(stderr, "%s: error: --smem-limit limits static shared memory; with --dynamic use --warp-limit\n",
              prog);
      return 2;
    }
    return cmd_rewrite(in, out, smem ? &opts : NULL);
  }
  fprintf(stderr, "%s: error: unknown command '%s' (see --help)\n", prog, cmd);
  return 2;
}
