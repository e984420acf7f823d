/* gen_ptx.c - writes the PTX module measured by measure.c.
 *
 * Usage: gen_ptx <arch> <out.ptx> <out.list>     e.g. gen_ptx sm_90 occ.ptx occ.list
 *
 * Every entry pins its register count: a loop carries NV float accumulators
 * (all live around the back edge, so no schedule can lower the pressure) and
 * `.maxnreg R` caps the allocation, so ptxas uses exactly R registers and
 * spills the rest (ptxas raises caps below 24 to 24 on sm_90).  A few small
 * entries without a cap cover register counts under 24, and some entries
 * carry static shared memory (a .shared array touched byte-wise, so any size
 * survives).  The list file names one entry per line; the register count
 * and static shared memory that count are the ones the driver reports, not
 * the ones asked for here.
 */
#include <stdio.h>
#include <stdlib.h>

typedef struct entry {
  int cap;        /* .maxnreg, 0 = none */
  int values;     /* accumulators carried around the loop; 0 = empty kernel */
  unsigned smem;  /* bytes of static shared memory, 0 = none */
} entry;

static const entry entries[] = {
    /* register pressure above 255, capped: every multiple of 8 from 24 */
    {24, 300, 0}, {32, 300, 0}, {40, 300, 0}, {48, 300, 0}, {56, 300, 0},
    {64, 300, 0}, {72, 300, 0}, {80, 300, 0}, {88, 300, 0}, {96, 300, 0},
    {104, 300, 0}, {112, 300, 0}, {120, 300, 0}, {128, 300, 0},
    {136, 300, 0}, {144, 300, 0}, {152, 300, 0}, {160, 300, 0},
    {168, 300, 0}, {176, 300, 0}, {184, 300, 0}, {192, 300, 0},
    {200, 300, 0}, {208, 300, 0}, {216, 300, 0}, {224, 300, 0},
    {232, 300, 0}, {240, 300, 0}, {248, 300, 0}, {255, 300, 0},
    /* odd counts: rounding to the 256-register warp allocation unit */
    {25, 300, 0}, {31, 300, 0}, {33, 300, 0}, {41, 300, 0}, {57, 300, 0},
    {63, 300, 0}, {65, 300, 0}, {97, 300, 0}, {127, 300, 0}, {129, 300, 0},
    {169, 300, 0}, {201, 300, 0}, {231, 300, 0}, {253, 300, 0},
    /* small kernels, no cap */
    {0, 0, 0}, {0, 4, 0}, {0, 12, 0},
    /* static shared memory */
    {32, 300, 7}, {32, 300, 1000}, {64, 300, 12288}, {40, 300, 20000},
    {128, 300, 40000}, {255, 300, 49152}, {0, 4, 3000},
};
#define N_ENTRIES (sizeof entries / sizeof entries[0])

static void entry_name(char *buf, size_t n, const entry *e) {
  snprintf(buf, n, "k_r%d_v%d_s%u", e->cap, e->values, e->smem);
}

static void emit(FILE *f, const entry *e) {
  char name[64];
  entry_name(name, sizeof name, e);
  int n = e->values;
  fprintf(f, ".visible .entry %s(.param .u64 pin, .param .u64 pout, "
             ".param .u32 cnt)\n", name);
  if (e->cap) fprintf(f, ".maxnreg %d\n", e->cap);
  fprintf(f, "{\n");
  if (e->smem) fprintf(f, "  .shared .align 4 .b8 sbuf[%u];\n", e->smem);
  fprintf(f, "  .reg .f32 x, y;\n  .reg .u64 pi, po, off, sa;\n"
             "  .reg .u32 t, i, n, b;\n  .reg .pred p;\n");
  if (n) fprintf(f, "  .reg .f32 a<%d>;\n", n);
  fprintf(f, "  ld.param.u64 pi, [pin];\n  ld.param.u64 po, [pout];\n"
             "  ld.param.u32 n, [cnt];\n  mov.u32 t, %%tid.x;\n"
             "  mul.wide.u32 off, t, 4;\n  add.u64 pi, pi, off;\n"
             "  add.u64 po, po, off;\n");
  if (e->smem) { /* sbuf[t % smem] = t; later read back sbuf[(t+1) % smem] */
    fprintf(f, "  rem.u32 b, t, %u;\n  cvt.u64.u32 sa, b;\n"
               "  mov.u64 off, sbuf;\n  add.u64 sa, sa, off;\n"
               "  st.shared.u8 [sa], t;\n  bar.sync 0;\n"
               "  add.u32 b, t, 1;\n  rem.u32 b, b, %u;\n"
               "  cvt.u64.u32 sa, b;\n  add.u64 sa, sa, off;\n"
               "  ld.shared.u8 b, [sa];\n",
            e->smem, e->smem);
  } else {
    fprintf(f, "  mov.u32 b, 0;\n");
  }
  fprintf(f, "  cvt.rn.f32.u32 y, b;\n");
  for (int k = 0; k < n; k++)
    fprintf(f, "  ld.global.f32 a%d, [pi+%d];\n", k, 4096 * k);
  if (n) {
    fprintf(f, "  mov.u32 i, 0;\nLOOP:\n  ld.global.f32 x, [pi];\n");
    for (int k = 0; k < n; k++)
      fprintf(f, "  fma.rn.f32 a%d, a%d, x, a%d;\n", k, k, (k + 1) % n);
    fprintf(f, "  add.u32 i, i, 1;\n  setp.lt.u32 p, i, n;\n"
               "  @p bra LOOP;\n");
    fprintf(f, "  add.f32 a0, a0, y;\n");
    for (int k = 0; k < n; k++)
      fprintf(f, "  st.global.f32 [po+%d], a%d;\n", 4096 * k, k);
  } else {
    fprintf(f, "  st.global.f32 [po], y;\n");
  }
  fprintf(f, "  ret;\n}\n\n");
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s <sm_XX> <out.ptx> <out.list>\n", argv[0]);
    return 2;
  }
  FILE *ptx = fopen(argv[2], "w"), *list = fopen(argv[3], "w");
  if (!ptx || !list) {
    perror("gen_ptx: fopen");
    return 1;
  }
  /* PTX 8.0 knows sm_90; Blackwell targets need 8.7. */
  int sm = atoi(argv[1] + (argv[1][0] == 's' ? 3 : 0));
  fprintf(ptx, ".version %s\n.target %s\n.address_size 64\n\n",
          sm >= 100 ? "8.7" : "8.0", argv[1]);
  for (size_t i = 0; i < N_ENTRIES; i++) {
    char name[64];
    emit(ptx, &entries[i]);
    entry_name(name, sizeof name, &entries[i]);
    fprintf(list, "%s\n", name);
  }
  if (fclose(ptx) || fclose(list)) {
    perror("gen_ptx: write");
    return 1;
  }
  return 0;
}
