/* driver/cc_codegen.h - Orion's device code-generation defaults (one table,
 * cc_codegen.c), shared by orion-cc and orion-config --cflags. */
#ifndef ORION_DRIVER_CC_CODEGEN_H
#define ORION_DRIVER_CC_CODEGEN_H

#include <stdio.h>

#include "util.h"

/* The defaults that are on unless turned off. */
unsigned cc_codegen_defaults(void);
/* --orion-codegen's LIST (default, none, names, no-<name>; comma-separated,
 * read left to right from the defaults) into *mask.  Returns 1, or 0 for an unknown name. */
int cc_codegen_parse(const char *list, unsigned *mask);
/* The device options (each after -Xarch_device) of the defaults in mask, and
 * the plugin's environment (NAME=0/1) for its steps that mask sets otherwise
 * than the plugin's default; the whole-program steps only when rdc is 0
 * (no -fgpu-rdc). */
void cc_codegen_args(unsigned mask, int rdc, strvec *argv, strvec *env);
/* One line a default for --help: its name and what it does. */
void cc_codegen_help(FILE *f);

#endif /* ORION_DRIVER_CC_CODEGEN_H */
