"""For every nvcc option orion-cc --help-nvcc lists as unsupported, run
orion-cc with it (and a value where it takes one) and check the answer:
exit status 1, no command run, and exactly one line on stderr,
  orion-cc: error: nvcc option '<name>' is not supported: <reason>
Prints one 'ok <name>' line per option and 'checked N'; any other answer is
printed as 'FAIL ...' and makes the exit status 1.
usage: nvcc_unmapped.py <orion-cc> <input.cu>"""
import subprocess
import sys

cc, src = sys.argv[1], sys.argv[2]
listing = subprocess.run([cc, "--help-nvcc"], capture_output=True, text=True, check=True).stdout
bad = 0
n = 0
for line in listing.splitlines():
    spelling, _, mapping = line.partition("\t")
    if not mapping.startswith("unsupported: "):
        continue
    name = spelling.split(" ")[0]
    args = [name, "x"] if spelling.endswith("<value>") else [name]
    r = subprocess.run([cc, "-###", "-c", src] + args, capture_output=True, text=True)
    want = "orion-cc: error: nvcc option '%s' is not supported: " % name
    lines = r.stderr.splitlines()
    n += 1
    if r.returncode == 1 and r.stdout == "" and len(lines) == 1 and lines[0].startswith(want) \
            and len(lines[0]) > len(want):
        print("ok", name)
    else:
        bad += 1
        print("FAIL", name, "exit", r.returncode, "stderr", repr(r.stderr))
print("checked", n)
sys.exit(1 if bad else 0)
