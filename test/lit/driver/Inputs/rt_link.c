/* A C program that links liborionrt (config.test): the launch entry is
 * referenced, so the static archive's objects and their libraries are pulled in. */
#include <stddef.h>
#include "orion/rt.h"
int main(int argc, char **argv) {
  (void)argv;
  if (argc > 5) /* never at run time: the link is what is tested */
    return __orion_launch_kernel(NULL, (orion_dim3){1, 1, 1}, (orion_dim3){1, 1, 1}, NULL, 0, NULL, NULL);
  return 0;
}
