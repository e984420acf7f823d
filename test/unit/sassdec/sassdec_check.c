/* sassdec_check.c - validate the SASS decoder/encoder against nvdisasm.
 *
 * usage: sassdec_check [-v] [-q] LISTING...
 *
 * Each LISTING is the output of `nvdisasm -c -hex -plr -lrm narrow` on one
 * cubin; its ".target sm_NN" line names the architecture the words are
 * decoded for (orion_sass_decode_arch; sm_90 when the line is missing).
 * For every instruction it decodes the two printed 64-bit words and
 * compares every field the decoder produces with what nvdisasm printed:
 *
 *   mnemonic     the text before the first '.' equals the table's mnemonic
 *   guard        @P0 / @!P0 / none for PT
 *   registers    the non-zero R/UR/B operands in order, the non-PT P/UP
 *                operands in order with their negation (implicit operands,
 *                which nvdisasm does not print, left out), .reuse flags
 *                against the control bits' reuse mask
 *   def/use      the registers written and read, each 32-bit register of a
 *                wide operand, against nvdisasm's life-range column
 *                (^ written, v read, x both); CALL is skipped there (the
 *                column shows the ABI's clobbers, not operands)
 *   memory       [base+offset] of LDL/STL/LDS/STS/LDG/STG, c[bank][offset]
 *   immediate    the 32-bit immediate where the text prints it in hex
 *   target       BRA/BSSY/CALL.REL/RET.REL: address + 16 + offset equals
 *                the address of the printed label
 *   encoding     orion_sass_encode(decode(w)) == w
 *
 * Prints per-opcode counts, a line per architecture seen
 *   sassdec sm_NN: N instructions in L listings, A agree
 * and one summary line:
 *   sassdec: N instructions, K distinct opcodes (M opcode/form pairs),
 *   A agree (P %)
 * Exit status 0 iff every instruction agrees (and at least one was read).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orion/sass.h"

#define MAXLINE 8192

typedef struct insn_rec {
  unsigned long addr;
  char text[512];
  orion_sass_word w;
  char plr[4][300]; /* per register file: column chars, 0-terminated */
  int file_line;
} insn_rec;

typedef struct label {
  char name[256];
  unsigned long addr;
} label;

/* Column groups of the life-range table (R, P, UR, UP). */
typedef struct plr_layout {
  int ngroups;
  int file[8];  /* orion_sass_file or -1 */
  int start[8]; /* column of register 0 */
  int count[8];
} plr_layout;

static int verbose, quiet;
static long n_insn, n_agree;
static long op_count[ORION_SASS_OP_COUNT], op_bad[ORION_SASS_OP_COUNT];
static unsigned char form_seen[4096];
/* Per architecture (index sm): listings, instructions, agreeing ones. */
static long arch_files[256], arch_insn[256], arch_agree[256];
static long n_unknown, n_imm_checked, n_target_checked, n_mem_checked,
    n_plr_checked, n_reuse;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q) {
    fprintf(stderr, "sassdec_check: out of memory\n");
    exit(2);
  }
  return q;
}

/* ---- reading the listing ---------------------------------------------- */

static int parse_hex_word(const char *s, uint64_t *v) {
  const char *p = strstr(s, "/* 0x");
  if (!p)
    return 0;
  *v = strtoull(p + 3, NULL, 16);
  return 1;
}

static void parse_plr_header(const char *names, const char *digits,
                             plr_layout *L) {
  L->ngroups = 0;
  const char *n0 = strstr(names, "// |");
  const char *d0 = strstr(digits, "// |");
  if (!n0 || !d0)
    return;
  size_t nofs = (size_t)(n0 - names), dofs = (size_t)(d0 - digits);
  /* Groups are delimited by '|' in the digits row. */
  const char *p = d0 + 4;
  while (*p && L->ngroups < 8) {
    const char *bar = strchr(p, '|');
    if (!bar)
      break;
    /* segment p..bar */
    char seg[512];
    size_t len = (size_t)(bar - p);
    if (len >= sizeof seg)
      len = sizeof seg - 1;
    memcpy(seg, p, len);
    seg[len] = 0;
    char *hash = strchr(seg, '#');
    int g = L->ngroups;
    L->file[g] = -1;
    L->start[g] = -1;
    L->count[g] = 0;
    if (hash) {
      char *q = hash + 1;
      while (*q == ' ')
        q++;
      L->start[g] = (int)((size_t)(p - digits) + (size_t)(q - seg));
      while (isdigit((unsigned char)*q)) {
        L->count[g]++;
        q++;
      }
      /* group name: same columns in the names row */
      size_t a = (size_t)(p - digits) - dofs + nofs, b = (size_t)(bar - digits) - dofs + nofs;
      char nm[512] = "";
      size_t k = 0;
      for (size_t i = a; i < b && i < strlen(names) && k + 1 < sizeof nm; i++)
        if (names[i] != ' ')
          nm[k++] = names[i];
      nm[k] = 0;
      if (!strcmp(nm, "GPR"))
        L->file[g] = ORION_SASS_R;
      else if (!strcmp(nm, "PRED"))
        L->file[g] = ORION_SASS_P;
      else if (!strcmp(nm, "UGPR"))
        L->file[g] = ORION_SASS_UR;
      else if (!strcmp(nm, "UPRED"))
        L->file[g] = ORION_SASS_UP;
    }
    L->ngroups++;
    p = bar + 1;
  }
}

static void copy_plr(const char *line, const plr_layout *L, insn_rec *r) {
  for (int f = 0; f < 4; f++)
    r->plr[f][0] = 0;
  size_t n = strlen(line);
  for (int g = 0; g < L->ngroups; g++) {
    int f = L->file[g];
    if (f < 0 || f > 3 || L->start[g] < 0)
      continue;
    int c = L->count[g];
    if (c > 299)
      c = 299;
    for (int i = 0; i < c; i++) {
      size_t col = (size_t)L->start[g] + (size_t)i;
      r->plr[f][i] = col < n ? line[col] : ' ';
    }
    r->plr[f][c] = 0;
  }
}

/* Instruction text between the address comment and " ;" / the hex. */
static void extract_text(const char *line, char *out, size_t cap) {
  const char *p = strstr(line, "*/");
  p = p ? p + 2 : line;
  while (*p == ' ')
    p++;
  const char *e = strstr(p, "/* 0x");
  size_t len = e ? (size_t)(e - p) : strlen(p);
  if (len >= cap)
    len = cap - 1;
  memcpy(out, p, len);
  out[len] = 0;
  char *ann = strstr(out, "(*"); /* (*"SpillRefill"*) annotations */
  if (ann)
    *ann = 0;
  size_t k = strlen(out);
  while (k && (out[k - 1] == ' ' || out[k - 1] == ';'))
    out[--k] = 0;
}

/* ---- text operands ------------------------------------------------------ */

typedef struct tok {
  int file; /* orion_sass_file */
  int num;
  int neg;
  int reuse;
} tok;

static int is_ident(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Register tokens of the operand text, in order. */
static int tokens(const char *ops, tok *t, int max) {
  int n = 0;
  size_t len = strlen(ops);
  for (size_t i = 0; i < len && n < max; i++) {
    if (i && (is_ident((unsigned char)ops[i - 1]) || ops[i - 1] == '.'))
      continue; /* inside a name, or a modifier such as R53.B1 (byte select) */
    const char *p = ops + i;
    int file = -1, num = -1;
    size_t used = 0;
    if (!strncmp(p, "URZ", 3)) file = ORION_SASS_UR, num = ORION_SASS_URZ, used = 3;
    else if (!strncmp(p, "UPT", 3)) file = ORION_SASS_UP, num = 7, used = 3;
    else if (!strncmp(p, "RZ", 2)) file = ORION_SASS_R, num = ORION_SASS_RZ, used = 2;
    else if (!strncmp(p, "PT", 2)) file = ORION_SASS_P, num = 7, used = 2;
    else if (!strncmp(p, "PR", 2) && !is_ident((unsigned char)p[2])) file = 100, num = 0, used = 2;
    else {
      static const struct { const char *pfx; int file; } P[] = {
          {"UR", ORION_SASS_UR}, {"UP", ORION_SASS_UP}, {"R", ORION_SASS_R},
          {"P", ORION_SASS_P}, {"B", ORION_SASS_B}};
      for (size_t k = 0; k < 5; k++) {
        size_t pl = strlen(P[k].pfx);
        if (!strncmp(p, P[k].pfx, pl) && isdigit((unsigned char)p[pl])) {
          file = P[k].file;
          num = atoi(p + pl);
          used = pl;
          while (isdigit((unsigned char)p[used]))
            used++;
          break;
        }
      }
    }
    if (file < 0 || is_ident((unsigned char)p[used]))
      continue;
    t[n].file = file;
    t[n].num = num;
    t[n].neg = i && ops[i - 1] == '!';
    if (p[used] == '|')
      used++;
    t[n].reuse = !strncmp(p + used, ".reuse", 6) ||
                 !strncmp(p + used, ".64.reuse", 9);
    n++;
    i += used - 1;
  }
  return n;
}

/* ---- comparison --------------------------------------------------------- */

static char why[1024];
#define FAIL(...) (snprintf(why, sizeof why, __VA_ARGS__), 0)

static int zero_reg(int file, int num) {
  return (file == ORION_SASS_R && num == ORION_SASS_RZ) ||
         (file == ORION_SASS_UR && num == ORION_SASS_URZ) ||
         ((file == ORION_SASS_P || file == ORION_SASS_UP) && num == 7);
}

static int is_pred(int file) { return file == ORION_SASS_P || file == ORION_SASS_UP; }

static const label *find_label(const label *L, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(L[i].name, name))
      return &L[i];
  return NULL;
}

static long parse_num(const char *s, const char **end) {
  int neg = 0;
  if (*s == '-')
    neg = 1, s++;
  else if (*s == '+')
    s++;
  char *e;
  long v = strtol(s, &e, 0);
  *end = e;
  return neg ? -v : v;
}

/* Registers (non-zero R/UR/B, then non-PT predicates) in the order the
 * text prints them, and the reuse bits against the operands printed with
 * .reuse.  requires: opbuf the operand text without the branch label. */
static int check_regs(const orion_sass_insn *in, char *opbuf) {
  /* registers in order */
  tok tk[32];
  int nt = tokens(opbuf, tk, 32);
  int ti = 0, di = 0;
  /* non-zero R/UR/B in order; non-PT predicates in order */
  for (int pass = 0; pass < 2; pass++) {
    ti = 0, di = 0;
    for (;;) {
      while (ti < nt && (tk[ti].file == 100 || zero_reg(tk[ti].file, tk[ti].num) ||
                         is_pred(tk[ti].file) != pass))
        ti++;
      while (di < in->nregs &&
             (in->regs[di].field == 0xff || in->regs[di].implicit ||
              zero_reg(in->regs[di].file, in->regs[di].num) ||
              is_pred(in->regs[di].file) != pass))
        di++;
      if (ti >= nt || di >= in->nregs)
        break;
      const orion_sass_reg *g = &in->regs[di];
      if (tk[ti].file != g->file || tk[ti].num != g->num ||
          (pass && tk[ti].neg != g->neg))
        return FAIL("operand %d: decoded file %u num %u neg %u", di, g->file,
                    g->num, g->neg);
      if (tk[ti].reuse) {
        n_reuse++;
        if (!g->port || !(in->ctrl.reuse >> (g->port - 1) & 1))
          return FAIL("reuse: operand %d port %u mask 0x%x", di, g->port,
                      in->ctrl.reuse);
      }
      ti++, di++;
    }
    if (ti < nt || di < in->nregs)
      return FAIL("%s operands: %d text / %d decoded left over",
                  pass ? "predicate" : "register", nt - ti, in->nregs - di);
  }
  /* every reuse bit belongs to an operand printed with .reuse */
  for (unsigned p = 1; p <= 3; p++) {
    if (!(in->ctrl.reuse >> (p - 1) & 1))
      continue;
    int found = 0;
    for (unsigned i = 0; i < in->nregs; i++)
      if (in->regs[i].port == p && !zero_reg(in->regs[i].file, in->regs[i].num))
        found = 1;
    if (!found)
      return FAIL("reuse bit %u without an operand", p);
  }
  if (in->ctrl.reuse & 8)
    return FAIL("reuse bit 3 set");
  {
    int nreuse_text = 0, nreuse_bits = 0;
    for (int i = 0; i < nt; i++)
      nreuse_text += tk[i].reuse;
    for (unsigned p = 0; p < 3; p++)
      nreuse_bits += in->ctrl.reuse >> p & 1;
    if (nreuse_text != nreuse_bits)
      return FAIL("reuse: %d in text, %d bits", nreuse_text, nreuse_bits);
  }

  return 1;
}

/* Each register's def/use against nvdisasm's life-range columns. */
static int check_plr(const insn_rec *r, const orion_sass_insn *in) {
  if (in->cls != ORION_SASS_CALL) {
    for (int f = 0; f < 4; f++) {
      size_t cols = strlen(r->plr[f]);
      char mine[300];
      memset(mine, ' ', sizeof mine);
      int limit = f == ORION_SASS_R ? 255 : f == ORION_SASS_UR ? 63 : 7;
      for (unsigned i = 0; i < in->nregs; i++) {
        const orion_sass_reg *g = &in->regs[i];
        if (g->file != f || zero_reg(g->file, g->num))
          continue;
        for (unsigned k = 0; k < g->width; k++) {
          unsigned n = g->num + k;
          if ((int)n >= limit)
            return FAIL("register %u beyond its file", n);
          char c = mine[n];
          int d = c == '^' || c == 'x', u = c == 'v' || c == 'x';
          if (g->def)
            d = 1;
          else
            u = 1;
          mine[n] = d && u ? 'x' : d ? '^' : 'v';
        }
      }
      if (in->guard != 7 && in->guard_file == f) /* the guard is read */
        mine[in->guard] = mine[in->guard] == '^' || mine[in->guard] == 'x' ? 'x' : 'v';
      for (int n = 0; n < limit; n++) {
        char theirs = (size_t)n < cols ? r->plr[f][n] : ' ';
        int td = theirs == '^' || theirs == 'x', tu = theirs == 'v' || theirs == 'x';
        int md = mine[n] == '^' || mine[n] == 'x', mu = mine[n] == 'v' || mine[n] == 'x';
        /* A predicated write keeps the old value: nvdisasm may show it as
         * read too.  P2R reads the predicates its mask selects, R2P
         * writes them; PR and PRw stand for all of them (a superset). */
        if (in->guard != 7 && md && td && tu && !mu)
          mu = 1;
        if (in->op == ORION_SASS_OP_P2R && f == ORION_SASS_P && mu && !tu)
          tu = 1;
        if (in->op == ORION_SASS_OP_R2P && f == ORION_SASS_P && md && !td)
          td = 1, tu = mu;
        if (td != md || tu != mu)
          return FAIL("def/use of %s%d: nvdisasm '%c', decoded '%c'",
                      f == 0 ? "R" : f == 1 ? "UR" : f == 2 ? "P" : "UP", n,
                      theirs, mine[n]);
      }
    }
    n_plr_checked++;
  }

  return 1;
}

/* The memory and constant-bank operands, and an immediate printed in hex
 * outside brackets, against the text. */
static int check_mem_imm(const orion_sass_insn *in, const char *opbuf) {
  /* memory operand */
  if (in->has_mem) {
    const char *lb = strrchr(opbuf, '[');
    if (!lb)
      return FAIL("memory operand not in text");
    const char *p = lb + 1;
    int base = ORION_SASS_RZ;
    long off = 0;
    /* [R2.64+UR4+0x10]: registers, then an optional signed offset */
    while (*p == 'R' || *p == 'U') {
      if (*p == 'R')
        base = p[1] == 'Z' ? ORION_SASS_RZ : atoi(p + 1);
      p += strcspn(p, "+-]");
      if (*p == '+')
        p++;
    }
    if (*p != ']') {
      const char *e;
      off = parse_num(p, &e);
    }
    const orion_sass_reg *g = &in->regs[in->mem_base_index];
    if (g->num != base || off != in->mem_off)
      return FAIL("memory: decoded [R%u%+d]", g->num, in->mem_off);
    n_mem_checked++;
  }
  if (in->has_cbank) {
    const char *c = strstr(opbuf, "c[");
    if (!c)
      return FAIL("constant operand not in text");
    const char *e = c;
    long bank = parse_num(c + 2, &e);
    const char *q = strchr(c + 2, '[');
    if (!q)
      return FAIL("constant operand");
    q++;
    if (*q == 'R' || *q == 'U') {
      q += strcspn(q, "+]");
      if (*q == '+')
        q++;
    }
    long off = *q == ']' ? 0 : parse_num(q, &e);
    if (bank != in->cbank || off != in->cbank_off)
      return FAIL("constant: decoded c[0x%x][0x%x]", in->cbank, in->cbank_off);
    n_mem_checked++;
  }

  /* immediate, where printed in hex outside brackets */
  if (in->has_imm) {
    int depth = 0;
    for (const char *p = opbuf; *p; p++) {
      if (*p == '[')
        depth++;
      else if (*p == ']')
        depth--;
      else if (!depth && (p == opbuf || !is_ident((unsigned char)p[-1])) &&
               ((p[0] == '0' && p[1] == 'x') || (p[0] == '-' && p[1] == '0' && p[2] == 'x'))) {
        const char *e;
        long v = parse_num(p, &e);
        if ((uint32_t)v != in->imm)
          return FAIL("immediate: decoded 0x%x", in->imm);
        n_imm_checked++;
        break;
      }
    }
  }

  return 1;
}

static int check_one(const insn_rec *r, unsigned sm, const label *labels,
                     size_t nlabels) {
  orion_sass_insn in;
  orion_status st = orion_sass_decode_arch(r->w, sm, &in);
  if (st != ORION_OK) {
    n_unknown++;
    return FAIL("decode: %s (opcode 0x%03x)", orion_strerror(st),
                (unsigned)(r->w.lo & 0xfff));
  }
  op_count[in.op]++;
  form_seen[in.opcode] = 1;

  /* encoding */
  orion_sass_word w2;
  st = orion_sass_encode(&in, &w2);
  if (st != ORION_OK || w2.lo != r->w.lo || w2.hi != r->w.hi)
    return FAIL("re-encode: %s %016llx %016llx", orion_strerror(st),
                (unsigned long long)w2.hi, (unsigned long long)w2.lo);

  /* guard + mnemonic */
  const char *t = r->text;
  int gpred = 7, gneg = 0;
  if (*t == '@') {
    t++;
    if (*t == '!')
      gneg = 1, t++;
    if (*t == 'U')
      t++;
    gpred = t[1] == 'T' ? 7 : t[1] - '0';
    while (*t && *t != ' ')
      t++;
    while (*t == ' ')
      t++;
  }
  if (gpred != in.guard || gneg != in.guard_neg)
    return FAIL("guard: decoded %s%u", in.guard_neg ? "!" : "", in.guard);
  char mnem[64];
  size_t ml = strcspn(t, ". ");
  if (ml >= sizeof mnem)
    ml = sizeof mnem - 1;
  memcpy(mnem, t, ml);
  mnem[ml] = 0;
  if (strcmp(mnem, orion_sass_op_name(in.op)))
    return FAIL("mnemonic: decoded %s", orion_sass_op_name(in.op));
  const char *ops = t + strcspn(t, " ");

  /* operand text without the branch-target label */
  char opbuf[512];
  snprintf(opbuf, sizeof opbuf, "%s", ops);
  char *bq = strchr(opbuf, '`');
  char tgt[256] = "";
  if (bq) {
    char *lp = strchr(bq, '('), *rp = lp ? strchr(lp, ')') : NULL;
    if (lp && rp) {
      size_t l = (size_t)(rp - lp - 1);
      if (l >= sizeof tgt)
        l = sizeof tgt - 1;
      memcpy(tgt, lp + 1, l);
      tgt[l] = 0;
    }
    *bq = 0;
  }

  if (!check_regs(&in, opbuf) || !check_plr(r, &in) || !check_mem_imm(&in, opbuf))
    return 0;

  /* branch target */
  if (in.has_target) {
    const label *l = tgt[0] ? find_label(labels, nlabels, tgt) : NULL;
    if (!l)
      return FAIL("target label '%s' not found", tgt);
    long long dest = (long long)r->addr + 16 + in.target;
    if (dest != (long long)l->addr)
      return FAIL("target: decoded 0x%llx, label at 0x%lx", dest, l->addr);
    n_target_checked++;
  }
  return 1;
}

static int check_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "sassdec_check: %s: cannot open\n", path);
    return 0;
  }
  char *line = xrealloc(NULL, MAXLINE), *prev = xrealloc(NULL, MAXLINE);
  char *names = xrealloc(NULL, MAXLINE);
  names[0] = prev[0] = 0;
  plr_layout L = {0};
  insn_rec *recs = NULL;
  size_t nrec = 0, caprec = 0;
  label *labels = NULL;
  size_t nlab = 0, caplab = 0;
  char pending[16][256];
  int npending = 0, lineno = 0, ok = 1;
  unsigned sm = 90;
  int known_arch = 1;
  insn_rec *open = NULL; /* first line read, waiting for the second */
  while (fgets(line, MAXLINE, f)) {
    lineno++;
    line[strcspn(line, "\n")] = 0;
    const char *tg = strstr(line, ".target");
    if (tg && !open && sscanf(tg, ".target sm_%u", &sm) == 1 &&
        !orion_sass_arch_supported(sm)) {
      fprintf(stderr, "%s:%d: architecture sm_%u not supported\n", path, lineno, sm);
      ok = known_arch = 0;
      break;
    }
    if (strstr(line, "GPR") && strstr(line, "// |"))
      snprintf(names, MAXLINE, "%s", line);
    if (strstr(line, "// |") && strstr(line, "# 0"))
      parse_plr_header(names, line, &L);
    if (open) {
      if (!parse_hex_word(line, &open->w.hi)) {
        fprintf(stderr, "%s:%d: second instruction word missing\n", path, lineno);
        ok = 0;
      }
      copy_plr(line, &L, open);
      open = NULL;
      continue;
    }
    const char *p = line;
    while (*p == ' ')
      p++;
    if (!strncmp(p, "/*", 2) && isxdigit((unsigned char)p[2]) && strstr(line, "/* 0x")) {
      if (nrec == caprec) {
        caprec = caprec ? caprec * 2 : 1024;
        recs = xrealloc(recs, caprec * sizeof *recs);
      }
      insn_rec *r = &recs[nrec++];
      memset(r, 0, sizeof *r);
      r->addr = strtoul(p + 2, NULL, 16);
      r->file_line = lineno;
      extract_text(line, r->text, sizeof r->text);
      parse_hex_word(line, &r->w.lo);
      for (int i = 0; i < npending; i++) {
        if (nlab == caplab) {
          caplab = caplab ? caplab * 2 : 256;
          labels = xrealloc(labels, caplab * sizeof *labels);
        }
        memcpy(labels[nlab].name, pending[i], sizeof labels[nlab].name);
        labels[nlab++].addr = r->addr;
      }
      npending = 0;
      open = r;
      continue;
    }
    if (!strncmp(line, "//----", 6))
      npending = 0; /* a new section */
    if (line[0] && line[0] != ' ' && line[0] != '\t' && line[0] != '/') {
      size_t n = strcspn(line, ": \t");
      if (line[n] == ':' && npending < 16 && n < 256) {
        memcpy(pending[npending], line, n);
        pending[npending++][n] = 0;
      }
    }
  }
  fclose(f);
  if (!nrec) {
    fprintf(stderr, "%s: no instructions read\n", path);
    ok = 0;
  }
  if (known_arch)
    arch_files[sm]++;
  for (size_t i = 0; known_arch && i < nrec; i++) {
    n_insn++;
    arch_insn[sm]++;
    why[0] = 0;
    if (check_one(&recs[i], sm, labels, nlab)) {
      n_agree++;
      arch_agree[sm]++;
    } else {
      ok = 0;
      orion_sass_insn in;
      if (orion_sass_decode_arch(recs[i].w, sm, &in) == ORION_OK)
        op_bad[in.op]++;
      if (!quiet)
        fprintf(stderr, "%s:%d: /*%04lx*/ %s [%016llx %016llx]: %s\n", path,
                recs[i].file_line, recs[i].addr, recs[i].text,
                (unsigned long long)recs[i].w.hi,
                (unsigned long long)recs[i].w.lo, why);
      if (verbose)
        for (int k = 0; k < 4; k++)
          fprintf(stderr, "    plr[%d] '%s'\n", k, recs[i].plr[k]);
    }
  }
  free(recs);
  free(labels);
  free(line);
  free(prev);
  free(names);
  return ok;
}

int main(int argc, char **argv) {
  int ok = 1, nfiles = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-v")) {
      verbose = 1;
      continue;
    }
    if (!strcmp(argv[i], "-q")) {
      quiet = 1;
      continue;
    }
    nfiles++;
    if (!check_file(argv[i]))
      ok = 0;
  }
  if (!nfiles) {
    fprintf(stderr, "usage: sassdec_check [-v] [-q] LISTING...\n");
    return 2;
  }
  int ops = 0, forms = 0;
  for (int i = 0; i < ORION_SASS_OP_COUNT; i++) {
    if (!op_count[i])
      continue;
    ops++;
    printf("  %-10s %8ld%s\n", orion_sass_op_name((orion_sass_op)i), op_count[i],
           op_bad[i] ? " DISAGREE" : "");
  }
  for (int i = 0; i < 4096; i++)
    forms += form_seen[i];
  for (int sm = 0; sm < 256; sm++)
    if (arch_files[sm])
      printf("sassdec sm_%d: %ld instructions in %ld listings, %ld agree\n", sm,
             arch_insn[sm], arch_files[sm], arch_agree[sm]);
  printf("sassdec: %ld instructions in %d listings, %d distinct opcodes (%d "
         "opcode/form pairs), %ld agree (%.3f %%); checked: %ld def/use, %ld "
         "memory, %ld immediates, %ld targets, %ld .reuse; %ld unknown\n",
         n_insn, nfiles, ops, forms, n_agree,
         n_insn ? 100.0 * (double)n_agree / (double)n_insn : 0.0, n_plr_checked,
         n_mem_checked, n_imm_checked, n_target_checked, n_reuse, n_unknown);
  return ok && n_insn ? 0 : 1;
}
