#!/usr/bin/env python3
"""A stand-in for ptxas (ORION_REAL_PTXAS) that prints canned -v output.

Writes "FAKE CUBIN <input>" to --output-file/-o.  Prints the file named by
$FAKE_PTXAS_INFO on stderr when -v is given.  With $FAKE_PTXAS_FAIL_TEMP set,
fails (exit 3) when the input is not the one named on the first call (that
is, orion-ptxas's reassembly of a pruned temporary PTX).  Appends each
command line to $FAKE_PTXAS_LOG if set.  Sleeps $FAKE_PTXAS_SLEEP seconds
before writing its output.
"""
import os
import sys
import time

args = sys.argv[1:]
out, inp, verbose = "elf.o", None, False
i = 0
while i < len(args):
    a = args[i]
    if a in ("-o", "--output-file"):
        out = args[i + 1]
        i += 2
        continue
    if a in ("-arch", "--gpu-name", "--split-compile", "-m"):
        i += 2
        continue
    if a in ("-v", "--verbose"):
        verbose = True
    elif not a.startswith("-"):
        inp = a
    i += 1
log = os.environ.get("FAKE_PTXAS_LOG")
if log:
    with open(log, "a") as f:
        f.write(" ".join(["ptxas"] + args) + "\n")
if os.environ.get("FAKE_PTXAS_FAIL_TEMP") and inp and "orion-ptxas-" in os.path.basename(inp):
    sys.stderr.write("ptxas fatal   : simulated failure\n")
    sys.exit(3)
if verbose and os.environ.get("FAKE_PTXAS_INFO"):
    sys.stderr.write(open(os.environ["FAKE_PTXAS_INFO"]).read())
sys.stderr.write("ptxas warning : a warning that always passes through\n")
if os.environ.get("FAKE_PTXAS_SLEEP"):
    time.sleep(float(os.environ["FAKE_PTXAS_SLEEP"]))
with open(out, "w") as f:
    f.write("FAKE CUBIN %s\n" % inp)
