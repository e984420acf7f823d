/* orion-ptxas - a drop-in replacement for ptxas that merges duplicate Orion
 * versions and reports what ptxas made of every entry.
 *
 * Usage: orion-ptxas [ptxas options] [--orion-* options] file.ptx
 * The contract is in ptxas_driver.h; the real ptxas is found as described in
 * toolpaths.h (ORION_REAL_PTXAS, ORION_CUDA_PATH, CUDA_PATH, build default).
 * Exit status: ptxas's, or 1 for Orion's own errors (bad --orion- option,
 * missing ptxas, unwritable report).
 */
#include <stdlib.h>

#include "proc.h"
#include "ptxas_driver.h"
#include "toolpaths.h"
#include "util.h"

int main(int argc, char **argv) {
  drv_prog = "orion-ptxas";
  optx_cmd c;
  optx_cmd_init(&c);
  char *err = NULL;
  if (optx_parse_args(argc - 1, argv + 1, &c, &err) != 0) {
    drv_error("%s", err);
    free(err);
    optx_cmd_free(&c);
    return 1;
  }
  c.exec_passthrough = 1;
  char *real = drv_real_ptxas();
  drv_defer_signals(); /* temporary files go on the normal error path */
  int st = optx_run(&c, real, NULL);
  drv_reraise_pending_signal();
  free(real);
  optx_cmd_free(&c);
  return st;
}
