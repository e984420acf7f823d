"""Run a command; print its exit status as 'exit=N' on stdout (lit's shell
cannot test for a particular non-zero status)."""
import subprocess
import sys

r = subprocess.run(sys.argv[1:])
sys.stdout.flush()
print("exit=%d" % r.returncode)
