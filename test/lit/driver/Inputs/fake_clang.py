#!/usr/bin/env python3
"""A stand-in for clang++ (ORION_CLANG): sleeps $FAKE_CLANG_SLEEP seconds,
writes a report line to $ORION_CC_REPORT like OrionPass would, and succeeds."""
import os
import sys
import time

time.sleep(float(os.environ.get("FAKE_CLANG_SLEEP", "0")))
rep = os.environ.get("ORION_CC_REPORT")
if rep:
    with open(rep, "a") as f:
        f.write('{"kernel":"k","sm":90,"versions":[]}\n')
sys.exit(0)
