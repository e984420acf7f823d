# Copies PTX from stdin to stdout with `.maxntid 256, 1, 1` and
# `.minnctapersm 4` added to the entry named argv[1] (what
# __launch_bounds__(256, 4) gives), so that ptxas holds that entry, and not
# its clones, to 64 registers.  Helper of e2e/user-limits.cu.
import re
import sys

text = sys.stdin.read()
pat = r"(\.entry %s\([^)]*\))" % re.escape(sys.argv[1])
out, n = re.subn(pat, r"\1\n.maxntid 256, 1, 1\n.minnctapersm 4", text, count=1)
if n != 1:
    sys.exit("bound_original.py: entry %s not found" % sys.argv[1])
sys.stdout.write(out)
