/* test_record.c - the decision record's text codec: round trip, forward
 * compatibility (unknown keys) and rejection of malformed text. */
#include <string.h>

#include "check.h"
#include "orion/record.h"

int main(void) {
  orion_record r;
  memset(&r, 0, sizeof r);
  strcpy(r.kernel, "_Z5heavyPf");
  r.sm = 90;
  r.max_live = 160;
  r.n_params = 3;
  r.hidden_params = 6;
  orion_select_input in = {90, 160, 0, 0, 0, ORION_CAP_FLOOR_PCT};
  CHECK(orion_select_versions(&in, &r.sel) == ORION_OK, "select");
  char buf[1024];
  CHECK(orion_record_format(&r, buf, sizeof buf) == ORION_OK, "format");
  orion_record back;
  CHECK(orion_record_parse(buf, &back) == ORION_OK, "parse '%s'", buf);
  CHECK(strcmp(back.kernel, r.kernel) == 0 && back.sm == 90 && back.max_live == 160 &&
            back.n_params == 3 && back.hidden_params == 6,
        "fields");
  CHECK(back.sel.n_versions == r.sel.n_versions && back.sel.direction == r.sel.direction &&
            back.sel.threshold == r.sel.threshold && back.sel.block == r.sel.block &&
            back.sel.original_warps == r.sel.original_warps && back.sel.max_warps == r.sel.max_warps,
        "selection");
  for (int i = 0; i < r.sel.n_versions; i++) {
    const orion_version *a = &r.sel.versions[i], *b = &back.sel.versions[i];
    CHECK(strcmp(a->tag, b->tag) == 0 && a->role == b->role && a->max_regs == b->max_regs &&
              a->target_warps == b->target_warps && a->is_pad == b->is_pad,
          "version %d", i);
  }
  /* dsm: every version with a binary but the original, six digits each,
   * zero as the pass writes it; a figure written in place (as orion-ptxas
   * does in the cubin) parses back to that version. */
  CHECK(strstr(buf, ";dsm=") != NULL && !strstr(buf, "orig:000000"), "dsm in '%s'", buf);
  int clones = 0;
  for (int i = 0; i < r.sel.n_versions; i++)
    clones += r.sel.versions[i].role != ORION_ROLE_ORIGINAL && !r.sel.versions[i].is_pad;
  CHECK(clones >= 2, "the selection has clones");
  const char *tag = NULL;
  for (int i = 0; i < r.sel.n_versions && !tag; i++)
    if (r.sel.versions[i].role != ORION_ROLE_ORIGINAL && !r.sel.versions[i].is_pad)
      tag = r.sel.versions[i].tag;
  long at = orion_record_dsm_at(buf, strlen(buf), tag);
  CHECK(at > 0 && !memcmp(buf + at, "000000", 6), "dsm_at %s", tag);
  memcpy(buf + at, "013440", 6);
  CHECK(orion_record_parse(buf, &back) == ORION_OK, "parse patched '%s'", buf);
  for (int i = 0; i < back.sel.n_versions; i++)
    CHECK(back.sel.versions[i].warp_smem == (strcmp(back.sel.versions[i].tag, tag) ? 0u : 13440u), "dsm of %s",
          back.sel.versions[i].tag);
  CHECK(orion_record_dsm_at(buf, strlen(buf), "orig") == -1 && orion_record_dsm_at(buf, strlen(buf), "r9") == -1,
        "dsm_at of versions without a figure");
  char again[1024];
  CHECK(orion_record_format(&back, again, sizeof again) == ORION_OK && !strcmp(again, buf), "dsm round trip");
  /* Too small a buffer: error and an empty string, never a truncated record. */
  char small[40];
  CHECK(orion_record_format(&r, small, sizeof small) == ORION_ERR_RANGE && small[0] == '\0', "range");
  /* Unknown keys are ignored. */
  CHECK(orion_record_parse("orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;future=x;v=orig:o:0:64", &back) ==
                ORION_OK && back.sel.n_versions == 1 && back.sm == 80 && back.n_params == 0 &&
            back.hidden_params == 0,
        "unknown key; np and hp default to 0");
  /* Five versions of the selection and the two unroll versions (role u). */
  const char *seven = "orion1;k=a;sm=90;dir=inc;ml=80;thr=32;blk=256;bk=0;w0=24;wmax=64;"
                      "v=orig:o:0:24,r64:c:64:32,r40:s:40:48,r32:s:32:64,p16:f:0:16,u4:u:0:16,"
                      "u8:u:0:16;np=1;hp=0;dsm=r64:000000,r40:000000,r32:000000,u4:000000,u8:000000";
  CHECK(orion_record_parse(seven, &back) == ORION_OK && back.sel.n_versions == 7 &&
            back.sel.versions[5].role == ORION_ROLE_UNROLL && !back.sel.versions[5].is_pad &&
            back.sel.versions[6].role == ORION_ROLE_UNROLL &&
            !strcmp(orion_role_name(back.sel.versions[5].role), "unroll") &&
            orion_unroll_factor(back.sel.versions[5].tag) == 4 &&
            orion_unroll_factor(back.sel.versions[6].tag) == 8 &&
            orion_unroll_factor("r64") == 0 && orion_unroll_factor("u16") == 0,
        "the unroll versions parse");
  CHECK(orion_record_format(&back, again, sizeof again) == ORION_OK && !strcmp(again, seven),
        "the unroll versions round trip: %s", again);
  static const char *bad[] = {
      "",
      "orion2;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64",
      "orion1;k=a;sm=80;dir=up;ml=3;thr=32;blk=128;v=orig:o:0:64",
      "orion1;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:x:0:64",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:zero:64",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=a:o:0:1,b:o:0:1,c:o:0:1,d:o:0:1,e:o:0:1,f:o:0:1,g:o:0:1,"
      "h:o:0:1",
      "orion1;k=a;sm=99999999999;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64",
      "orion1;k=a;noequals;v=orig:o:0:64",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64;np=-1",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64;hp=x",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64;dsm=r32",
      "orion1;k=a;sm=80;dir=dec;ml=3;thr=32;blk=128;v=orig:o:0:64;dsm=r32:-1",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK(orion_record_parse(bad[i], &back) == ORION_ERR_PARSE, "rejects '%s'", bad[i]);
  CHECK(orion_record_parse(NULL, &back) == ORION_ERR_INVALID_ARG, "NULL");
  strcpy(r.kernel, "bad;name");
  CHECK(orion_record_format(&r, buf, sizeof buf) == ORION_ERR_INVALID_ARG, "separator in name");
  return CHECK_DONE();
}
