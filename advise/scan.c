/* advise/scan.c - kernels and launch sites through libclang (advise.h, step 1).
 *
 * One pre-order walk of the translation unit's cursors, skipping those in
 * system headers.  A FunctionDecl or FunctionTemplate with a CUDAGlobalAttr
 * child is a kernel, keyed by USR (an instantiation is keyed by its
 * template's USR).  A CallExpr whose referenced declaration is a kernel is
 * a `<<<>>>` launch; one referencing cudaLaunchKernel (or the cooperative
 * form) is an API launch of the kernel its first argument names.  Places
 * are file locations (the expansion of a macro, with in_macro set when the
 * spelling differs).  The launch configuration is the source text between
 * `<<<` and `>>>` (or the call's arguments), whitespace collapsed.
 */
#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

typedef struct scan_ctx {
  adv_program *p;
  CXTranslationUnit tu;
} scan_ctx;

static char *take(CXString s) {
  const char *c = clang_getCString(s);
  char *r = drv_xstrdup(c ? c : "");
  clang_disposeString(s);
  return r;
}

static void set_loc(adv_loc *l, CXSourceLocation at) {
  CXFile f, sf;
  unsigned line, col, off, sline, scol, soff;
  clang_getExpansionLocation(at, &f, &line, &col, &off);
  clang_getSpellingLocation(at, &sf, &sline, &scol, &soff);
  free(l->file);
  l->file = NULL;
  if (f) {
    CXString n = clang_File_tryGetRealPathName(f);
    const char *c = clang_getCString(n);
    l->file = (c && *c) ? drv_xstrdup(c) : take(clang_getFileName(f));
    if (c)
      clang_disposeString(n);
  }
  l->line = line, l->col = col, l->offset = off;
  l->in_macro = !clang_File_isEqual(f, sf) || soff != off;
}

static enum CXChildVisitResult find_global(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
    *(int *)d = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static int is_kernel_decl(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
    return 0;
  int g = 0;
  clang_visitChildren(c, find_global, &g);
  return g;
}

/* Whether the tokens from the start of decl to its name spell a register
 * limit.  The range is rebuilt from file offsets: the extent starts in a
 * macro (__global__), where clang_tokenize gives nothing. */
static int has_limit(CXTranslationUnit tu, CXCursor decl) {
  CXFile f, fn;
  unsigned start, name_off;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(decl)), &f, NULL, NULL,
                             &start);
  clang_getExpansionLocation(clang_getCursorLocation(decl), &fn, NULL, NULL, &name_off);
  if (!f || !clang_File_isEqual(f, fn) || start >= name_off)
    return 0;
  CXSourceRange r = clang_getRange(clang_getLocationForOffset(tu, f, start),
                                   clang_getLocationForOffset(tu, f, name_off));
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(tu, r, &t, &n);
  int found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    char *s = take(clang_getTokenSpelling(tu, t[i]));
    found = strstr(s, "launch_bounds") || strstr(s, "maxnreg");
    free(s);
  }
  clang_disposeTokens(tu, t, n);
  return found;
}

static void add_name(adv_kernel *k, const char *name) {
  if (!name || !*name)
    return;
  for (size_t i = 0; i < k->names.n; i++)
    if (!strcmp(k->names.v[i], name))
      return;
  sv_push(&k->names, name);
}

/* The kernel of declaration c (a template for an instantiation), added
 * on first sight; its place is the definition's when there is one. */
static size_t kernel_of(scan_ctx *x, CXCursor c) {
  CXCursor t = clang_getSpecializedCursorTemplate(c);
  CXCursor decl = clang_Cursor_isNull(t) ? c : t;
  char *usr = take(clang_getCursorUSR(decl));
  adv_program *p = x->p;
  size_t i = 0;
  while (i < p->nk && strcmp(p->k[i].usr, usr))
    i++;
  if (i == p->nk) {
    p->k = drv_xrealloc(p->k, (p->nk + 1) * sizeof *p->k);
    adv_kernel *k = &p->k[p->nk++];
    memset(k, 0, sizeof *k);
    sv_init(&k->names);
    k->usr = usr;
    k->name = take(clang_getCursorSpelling(decl));
    k->is_template = clang_getCursorKind(decl) == CXCursor_FunctionTemplate;
    add_name(k, k->name);
  } else
    free(usr);
  adv_kernel *k = &p->k[i];
  CXCursor def = clang_getCursorDefinition(decl);
  CXCursor at = clang_Cursor_isNull(def) ? decl : def;
  if (!k->loc.file || !clang_Cursor_isNull(def)) {
    set_loc(&k->loc, clang_getCursorLocation(at));
    k->has_limit = has_limit(x->tu, at);
  }
  if (clang_Cursor_isNull(t) && !k->is_template) {
    char *m = take(clang_Cursor_getMangling(decl));
    add_name(k, m);
    free(m);
  }
  return i;
}

/* Source text of [a, b) in its file, whitespace runs made one space. */
static char *text_between(CXTranslationUnit tu, CXSourceLocation a, CXSourceLocation b) {
  CXFile f, fb;
  unsigned oa, ob;
  clang_getExpansionLocation(a, &f, NULL, NULL, &oa);
  clang_getExpansionLocation(b, &fb, NULL, NULL, &ob);
  size_t size = 0;
  const char *buf = f ? clang_getFileContents(tu, f, &size) : NULL;
  orion_strbuf s;
  orion_sb_init(&s);
  if (buf && clang_File_isEqual(f, fb) && oa <= ob && ob <= size)
    for (unsigned i = oa; i < ob; i++) {
      char ch = buf[i] == '\n' || buf[i] == '\t' || buf[i] == '\r' ? ' ' : buf[i];
      if (ch != ' ' || (s.len && s.p[s.len - 1] != ' '))
        orion_sb_addc(&s, ch);
    }
  while (s.len && s.p[s.len - 1] == ' ')
    s.p[--s.len] = 0;
  if (!s.p)
    orion_sb_adds(&s, "");
  return orion_sb_detach(&s);
}

/* "<<<...>>>" of a kernel call, from its tokens; *callee: the text
 * before it. */
static char *chevrons(CXTranslationUnit tu, CXCursor call, char **callee) {
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(call), &t, &n);
  CXSourceLocation a = clang_getNullLocation(), b = a;
  int open = 0;
  for (unsigned i = 0; i < n; i++) {
    char *s = take(clang_getTokenSpelling(tu, t[i]));
    if (!open && !strcmp(s, "<<<")) {
      a = clang_getTokenLocation(tu, t[i]);
      open = 1;
    } else if (open == 1 && !strcmp(s, ">>>")) {
      b = clang_getRangeEnd(clang_getTokenExtent(tu, t[i]));
      open = 2;
    }
    free(s);
  }
  clang_disposeTokens(tu, t, n);
  CXSourceRange ext = clang_getCursorExtent(call);
  if (open != 2) { /* spelt by a macro: its invocation */
    *callee = NULL;
    return text_between(tu, clang_getRangeStart(ext), clang_getRangeEnd(ext));
  }
  *callee = text_between(tu, clang_getRangeStart(ext), a);
  return text_between(tu, a, b);
}

/* Whether declaration r is a kernel or an instantiation of one. */
static int is_kernel_ref(CXCursor r) {
  if (clang_Cursor_isNull(r))
    return 0;
  CXCursor t = clang_getSpecializedCursorTemplate(r);
  return is_kernel_decl(clang_Cursor_isNull(t) ? r : t);
}

static enum CXChildVisitResult find_kernel_ref(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && is_kernel_ref(clang_getCursorReferenced(c))) {
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* e without the parentheses and implicit conversions around it (and,
 * with members, the member accesses): the first child of each, or the
 * null cursor when one has none. */
static CXCursor unwrap(CXCursor e, int members) {
  for (int depth = 0; depth < 16; depth++) {
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
        !(members && k == CXCursor_MemberRefExpr))
      return e;
    CXCursor c = clang_getNullCursor();
    clang_visitChildren(e, first_child, &c);
    e = c;
  }
  return clang_getNullCursor();
}

/* Whether expression e names var, or a member of it. */
static int names_var(CXCursor e, CXCursor var) {
  e = unwrap(e, 1);
  return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
         clang_equalCursors(clang_getCursorReferenced(e), var);
}

typedef struct write_ctx {
  CXCursor var;
  int written;
} write_ctx;

/* Any write to w->var: a built-in assignment, an overloaded operator
 * taking it first (operator=, operator+=, ...: counted as writes), an
 * increment or decrement, its address taken. */
static enum CXChildVisitResult find_write(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  write_ctx *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor lhs = clang_getNullCursor();
  if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
      clang_visitChildren(c, first_child, &lhs);
  } else if (k == CXCursor_UnaryOperator) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
        op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ||
        op == CXUnaryOperator_AddrOf)
      clang_visitChildren(c, first_child, &lhs);
  } else if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) > 0) {
    char *name = take(clang_getCursorSpelling(c));
    if (!strncmp(name, "operator", 8))
      lhs = clang_Cursor_getArgument(c, 0);
    free(name);
  }
  if (!clang_Cursor_isNull(lhs) && names_var(lhs, w->var)) {
    w->written = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* The initialiser a launch argument stands for: e itself, or, when e
 * names a local variable (dim3 block(256); int threads = 128;) that
 * nothing in its function writes, the variable's initialiser. */
static CXCursor through_local(CXCursor e) {
  CXCursor ref = unwrap(e, 0);
  if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr)
    return e;
  CXCursor var = clang_getCursorReferenced(ref);
  CXCursor fn = clang_getCursorSemanticParent(var);
  CXCursor init = clang_Cursor_getVarDeclInitializer(var);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_Cursor_isNull(init) ||
      (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_FunctionTemplate))
    return e;
  write_ctx w = {var, 0};
  clang_visitChildren(fn, find_write, &w);
  return w.written ? e : init;
}

static long eval_int(CXCursor c) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  long v = -1;
  if (r && clang_EvalResult_getKind(r) == CXEval_Int)
    v = (long)clang_EvalResult_getAsLongLong(r);
  if (r)
    clang_EvalResult_dispose(r);
  if (v < 0) {
    CXCursor init = through_local(c);
    if (!clang_equalCursors(init, c))
      return eval_int(init);
  }
  return v;
}

static enum CXChildVisitResult first_call(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return CXChildVisit_Recurse;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* The threads of a dim3 argument built from constants (dim3(x, y, z), an
 * integer converted to dim3, an unwritten local dim3 so built), else 0. */
static long dim3_threads(CXCursor arg) {
  for (int depth = 0; depth < 4; depth++) {
    CXCursor call = clang_getNullCursor();
    arg = through_local(arg);
    if (clang_getCursorKind(arg) == CXCursor_CallExpr)
      call = arg;
    else
      clang_visitChildren(arg, first_call, &call);
    int n = clang_Cursor_isNull(call) ? 0 : clang_Cursor_getNumArguments(call);
    if (n == 1) { /* a copy of a dim3 */
      arg = clang_Cursor_getArgument(call, 0);
      continue;
    }
    if (n != 3)
      return 0;
    long t = 1;
    for (int i = 0; i < 3; i++) {
      long v = eval_int(clang_Cursor_getArgument(call, i));
      if (v < 1)
        return 0;
      t *= v;
    }
    return t;
  }
  return 0;
}

static enum CXChildVisitResult find_config(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    char *name = take(clang_getCursorSpelling(c));
    int is_cfg = !strcmp(name, "__cudaPushCallConfiguration") || !strcmp(name, "cudaConfigureCall");
    free(name);
    if (is_cfg) {
      *(CXCursor *)d = c;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Continue;
}

/* The constant block size and dynamic shared memory of a launch, from the
 * call's arguments (block, smem): <<<grid, block, smem>>> pushes them as
 * the configuration call's arguments 1 and 2, cudaLaunchKernel has them
 * as arguments 2 and 4. */
static void launch_shape(adv_site *s, CXCursor call) {
  CXCursor cfg = call;
  int bi = 2, si = 4;
  s->threads = 0, s->dyn_smem = -1;
  if (!s->api) {
    cfg = clang_getNullCursor();
    clang_visitChildren(call, find_config, &cfg);
    bi = 1, si = 2;
  }
  int n = clang_Cursor_isNull(cfg) ? 0 : clang_Cursor_getNumArguments(cfg);
  if (n > bi)
    s->threads = dim3_threads(clang_Cursor_getArgument(cfg, (unsigned)bi));
  if (n > si)
    s->dyn_smem = eval_int(clang_Cursor_getArgument(cfg, (unsigned)si));
}

static int is_launch_api(const char *name) {
  return !strcmp(name, "cudaLaunchKernel") || !strcmp(name, "cudaLaunchCooperativeKernel");
}

/* A launch site of kdecl at call; api: through cudaLaunchKernel, whose
 * argument ref names the kernel. */
static void add_site(scan_ctx *x, CXCursor call, CXCursor kdecl, int api, CXCursor ref) {
  size_t ki = kernel_of(x, kdecl);
  adv_program *p = x->p;
  adv_loc at = {0};
  set_loc(&at, clang_getCursorLocation(call));
  for (size_t i = 0; i < p->ns; i++) /* a header's launch seen again in another unit */
    if (p->s[i].kernel == ki && p->s[i].loc.offset == at.offset && at.file && p->s[i].loc.file &&
        !strcmp(p->s[i].loc.file, at.file)) {
      free(at.file);
      return;
    }
  p->s = drv_xrealloc(p->s, (p->ns + 1) * sizeof *p->s);
  adv_site *s = &p->s[p->ns++];
  memset(s, 0, sizeof *s);
  s->kernel = ki;
  s->api = api;
  s->loc = at;
  s->mangled = take(clang_Cursor_getMangling(kdecl));
  add_name(&p->k[ki], s->mangled);
  launch_shape(s, call);
  CXSourceRange ext = clang_getCursorExtent(call);
  if (api) {
    s->callee = text_between(x->tu, clang_getRangeStart(clang_getCursorExtent(ref)),
                             clang_getRangeEnd(clang_getCursorExtent(ref)));
    s->config = text_between(x->tu, clang_getRangeStart(ext), clang_getRangeEnd(ext));
  } else {
    s->config = chevrons(x->tu, call, &s->callee);
    if (!s->callee || !*s->callee) {
      free(s->callee);
      s->callee = drv_xstrdup(p->k[ki].name);
    }
  }
}

static enum CXChildVisitResult find_overloaded(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_OverloadedDeclRef) {
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
  }
  return k == CXCursor_UnexposedExpr || k == CXCursor_DeclRefExpr ? CXChildVisit_Recurse
                                                                  : CXChildVisit_Break;
}

/* The kernel a call inside a template names through an unresolved
 * overload set (ratt_kernel<<<...>>>(...) with deduced arguments), or
 * null: a __global__ function can only be launched. */
static CXCursor dependent_kernel(CXCursor call) {
  CXCursor callee = clang_getNullCursor(), ref = clang_getNullCursor();
  clang_visitChildren(call, first_child, &callee);
  if (clang_Cursor_isNull(callee))
    return callee;
  if (clang_getCursorKind(callee) == CXCursor_OverloadedDeclRef)
    ref = callee;
  else
    clang_visitChildren(callee, find_overloaded, &ref);
  for (unsigned i = 0, n = clang_Cursor_isNull(ref) ? 0 : clang_getNumOverloadedDecls(ref); i < n;
       i++) {
    CXCursor decl = clang_getOverloadedDecl(ref, i);
    if (is_kernel_ref(decl))
      return decl;
  }
  return clang_getNullCursor();
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  scan_ctx *x = d;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (is_kernel_decl(c)) {
    kernel_of(x, c);
    return CXChildVisit_Recurse;
  }
  if (kind != CXCursor_CallExpr)
    return CXChildVisit_Recurse;
  CXCursor r = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(r)) {
    CXCursor k = dependent_kernel(c);
    if (!clang_Cursor_isNull(k))
      add_site(x, c, k, 0, c);
    return CXChildVisit_Recurse;
  }
  if (is_kernel_ref(r)) {
    add_site(x, c, r, 0, c);
    return CXChildVisit_Recurse;
  }
  char *name = take(clang_getCursorSpelling(r));
  int api = is_launch_api(name);
  free(name);
  if (api && clang_Cursor_getNumArguments(c) > 0) {
    CXCursor k = clang_getNullCursor();
    clang_visitChildren(clang_Cursor_getArgument(c, 0), find_kernel_ref, &k);
    if (!clang_Cursor_isNull(k))
      add_site(x, c, clang_getCursorReferenced(k), 1, k);
  }
  return CXChildVisit_Recurse;
}

/* The first error of tu, formatted with its place, or NULL. */
static char *first_error(CXTranslationUnit tu) {
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
    CXDiagnostic g = clang_getDiagnostic(tu, i);
    char *msg = NULL;
    if (clang_getDiagnosticSeverity(g) >= CXDiagnostic_Error) {
      adv_loc at = {0};
      set_loc(&at, clang_getDiagnosticLocation(g));
      char *text = take(clang_getDiagnosticSpelling(g));
      msg = at.file ? drv_xasprintf("%s:%u:%u: %s", at.file, at.line, at.col, text)
                    : drv_xstrdup(text);
      free(text);
      free(at.file);
    }
    clang_disposeDiagnostic(g);
    if (msg)
      return msg;
  }
  return NULL;
}

int adv_scan(adv_program *p, const char *const *argv, int argc, const char *dir, char **err) {
  strvec args;
  sv_init(&args);
  for (int i = 0; i < argc; i++)
    sv_push(&args, argv[i]);
  sv_push(&args, "-Wno-unknown-cuda-version");
  if (dir)
    sv_pushf(&args, "-working-directory=%s", dir);
  CXIndex idx = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  enum CXErrorCode e = clang_parseTranslationUnit2FullArgv(
      idx, NULL, (const char *const *)args.v, (int)args.n, NULL, 0, CXTranslationUnit_KeepGoing, &tu);
  int rc = 0;
  if (e != CXError_Success || !tu) {
    *err = drv_xasprintf("libclang could not parse the command (error %d)", (int)e);
    rc = -1;
  } else if ((*err = first_error(tu)) != NULL) {
    rc = -1;
  } else {
    scan_ctx x = {p, tu};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &x);
  }
  if (tu)
    clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  sv_free(&args);
  return rc;
}

/* The identifier of a demangled name: "ns::k<int>(float*)" -> "k". */
/* The identifier of an Itanium mangling (_Z11ratt_kernelIfEvPKT_,
 * _ZN2ns6kernelEPf: the last name of the nested name), or NULL. */
static char *mangled_identifier(const char *m) {
  if (strncmp(m, "_Z", 2))
    return NULL;
  m += 2;
  if (*m == 'L')
    m++;
  int nested = *m == 'N';
  if (nested)
    for (m++; *m == 'r' || *m == 'V' || *m == 'K'; m++)
      ;
  const char *last = NULL;
  size_t len = 0;
  while (*m >= '0' && *m <= '9') {
    char *end;
    unsigned long n = strtoul(m, &end, 10);
    if (!n || strnlen(end, n) < n)
      return NULL;
    last = end, len = n, m = end + n;
    if (!nested)
      break;
    if (!strncmp(m, "St", 2))
      m += 2;
  }
  return last ? drv_xstrndup(last, len) : NULL;
}

static char *plain_name(const char *name) {
  char *id = mangled_identifier(name);
  if (id)
    return id;
  size_t end = strcspn(name, "(<");
  char *s = drv_xstrndup(name, end);
  char *colon = strrchr(s, ':');
  if (colon) {
    char *r = drv_xstrdup(colon + 1);
    free(s);
    s = r;
  }
  return s;
}

long adv_find_kernel(const adv_program *p, const char *name) {
  for (size_t i = 0; i < p->nk; i++)
    for (size_t j = 0; j < p->k[i].names.n; j++)
      if (!strcmp(p->k[i].names.v[j], name))
        return (long)i;
  /* Another instantiation's mangling, or a demangled name: its
   * identifier, when exactly one kernel has it. */
  char *id = plain_name(name);
  long found = -1;
  for (size_t i = 0; i < p->nk && found != -2; i++)
    if (!strcmp(p->k[i].name, id))
      found = found == -1 ? (long)i : -2;
  free(id);
  return found < 0 ? -1 : found;
}

void adv_program_free(adv_program *p) {
  for (size_t i = 0; i < p->nk; i++) {
    free(p->k[i].name);
    free(p->k[i].usr);
    free(p->k[i].loc.file);
    sv_free(&p->k[i].names);
  }
  for (size_t i = 0; i < p->ns; i++) {
    free(p->s[i].loc.file);
    free(p->s[i].callee);
    free(p->s[i].mangled);
    free(p->s[i].config);
  }
  free(p->k);
  free(p->s);
  memset(p, 0, sizeof *p);
}
