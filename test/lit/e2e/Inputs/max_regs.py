# Reads `cuobjdump -res-usage` on stdin; prints "<function> <registers>" per
# entry (by kernel: the original, then its clones by name), then "limits: ok" when every entry of kernel _Z5plain... holds at
# most argv[1] registers, every entry of _Z2lb... at most argv[2] and, if
# given, every entry of _Z2mr... at most argv[3] (else
# the offending entries).  Helper of e2e/user-limits.cu.
import re
import sys

limit = {"_Z5plainP6float4PKS_i": int(sys.argv[1]), "_Z2lbP6float4PKS_i": int(sys.argv[2])}
if len(sys.argv) > 3:
    limit["_Z2mrP6float4PKS_i"] = int(sys.argv[3])


def kernel_of(name):
    """The kernel a clone belongs to: _Z<n><id>__orion_<tag><rest> (the tag
    inside the identifier, orion/demangle.h) -> _Z<m><id><rest>."""
    m = re.match(r"_Z(\d+)", name)
    if not m:
        return name.split("__orion_")[0]
    n, at = int(m.group(1)), m.end()
    ident = name[at:at + n]
    if "__orion_" not in ident:
        return name
    base = ident[:ident.rindex("__orion_")]
    return "_Z%d%s%s" % (len(base), base, name[at + n:])


name, bad, rows = None, [], []
for line in sys.stdin:
    m = re.match(r"\s*Function (\S+):", line)
    if m:
        name = m.group(1)
        continue
    m = re.search(r"\bREG:(\d+)", line)
    if m and name:
        regs = int(m.group(1))
        rows.append((kernel_of(name), name != kernel_of(name), name, regs))
        kernel = kernel_of(name)
        if kernel in limit and regs > limit[kernel]:
            bad.append("%s %d > %d" % (name, regs, limit[kernel]))
        name = None
print("\n".join("%s %d" % (r[2], r[3]) for r in sorted(rows)))
print("limits: ok" if rows and not bad else "limits: exceeded: " + "; ".join(bad))
