/* driver/cc_run.c - orion-cc's commands: run them, or print them under
 * -### (and before running under -v); in-process work appears as a '#'
 * comment; the private temporary directory.  Contracts in cc.h.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

static void print_command(char *const argv[], char *const env[]) {
  orion_strbuf b;
  orion_sb_init(&b);
  drv_format_command(&b, argv, env);
  fflush(stdout);
  if (b.len)
    fwrite(b.p, 1, b.len, stderr);
  orion_sb_free(&b);
}

int cc_run_cmd(cc *c, strvec *argv, strvec *env, int capture, drv_proc_result *res) {
  drv_proc_result local;
  drv_proc_result *r = res ? res : &local;
  memset(r, 0, sizeof *r);
  if (c->dry_run || c->verbose)
    print_command(argv->v, env ? env->v : NULL);
  if (c->dry_run)
    return 0;
  int st = drv_run(argv->v, env ? env->v : NULL, capture, r);
  if (st < 0) {
    drv_error("%s: cannot run: %s", argv->v[0], strerror(r->spawn_errno));
    st = 1;
  }
  if (!res)
    drv_proc_result_free(&local);
  return st;
}

void cc_note_inprocess(cc *c, const char *fmt, ...) {
  if (!c->dry_run && !c->verbose)
    return;
  orion_strbuf b;
  orion_sb_init(&b);
  orion_sb_adds(&b, "# orion-cc (in process): ");
  va_list ap;
  va_start(ap, fmt);
  orion_sb_vaddf(&b, fmt, ap);
  va_end(ap);
  orion_sb_addc(&b, '\n');
  fflush(stdout);
  fwrite(b.p, 1, b.len, stderr);
  orion_sb_free(&b);
}

/* Under -###: orion-ptxas's conditional extra ptxas runs, as a comment
 * (what runs depends on ptxas's figures; driver/README.md). */
void cc_note_spill_commands(cc *c, const char *how, int show_path) {
  if (!c->dry_run)
    return;
  const char *pol = c->spill ? c->spill : "auto";
  const char *px = !show_path ? "ptxas" : c->user_ptxas_path ? c->user_ptxas : c->real_ptxas;
  fflush(stdout);
  if (strcmp(pol, "off") == 0 || strcmp(pol, "auto") == 0)
    fprintf(stderr, "# orion-ptxas (%s): --orion-spill=%s: no extra ptxas run for versions "
                    "that spill\n", how, pol);
  else
    fprintf(stderr,
            "# orion-ptxas (%s): if versions spill or keep a stack frame (--orion-spill=%s)%s: "
            "\"%s\" \"--version\"; \"%s\" <ptxas options> \"-v\" \"--entry\" <version>... on "
            "the PTX with .pragma \"enable_smem_spilling\" (and .maxntid <block>) in those "
            "entries; then the final assembly with the ones kept\n",
            how, pol, strcmp(pol, "pragma") != 0 ? " and the SASS rewriter does not apply" : "",
            px, px);
}

int cc_need_tmpdir(cc *c) {
  if (c->tmpdir)
    return 1;
  if (c->dry_run) {
    const char *t = getenv("TMPDIR");
    c->tmpdir = drv_xasprintf("%s/orion-cc-XXXXXX", t && *t ? t : "/tmp");
    return 1;
  }
  c->tmpdir = drv_make_temp_dir("orion-cc");
  if (!c->tmpdir) {
    drv_error("cannot create a temporary directory: %s", strerror(errno));
    return 0;
  }
  return 1;
}

const char *cc_first_arch(const cc *c) { return c->archs.n ? c->archs.v[0] : DEFAULT_ARCH; }
