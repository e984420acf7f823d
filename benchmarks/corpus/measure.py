#!/usr/bin/env python3
"""measure.py - run the corpus on a GPU machine and record each kernel's GPU time.

    measure.py --pack DIR --out DIR [--runs 3] [--deadline-s S] [--programs a,b]
               [--modes m,...] [--traces]

DIR (from pack.sh) holds kerntime.so, programs.txt and src/<name>-cuda/ with
the binaries nvcc, clang and orion and the program's input files.  For each
program, in rounds whose order rotates, it runs:

    nvcc, clang          the plain builds
    off                  Orion's binary, ORION_MODE=off
    adaptive             Orion's binary, tuning included, ORION_CACHE=off
    cached               Orion's binary with a decision cache filled by one
                         untimed adaptive run before the rounds
    split                as adaptive, with ORION_SPLIT=1 (single launches
                         tuned on chunks; needs a build with split clones,
                         orion-cc --orion-split or ORION_SPLIT_CLONES=1)
    fixed:<tag>          every version the binary has (orig included), alone
                         (--tags: only those named)
    claims               (after the rounds) each kernel whose adaptive runs
                         chose another version than the original, on that
                         version alone, every other kernel on the original:
                         ORION_MODE=fixed:<kernel>=<tag>, recorded as mode
                         alone:<tag>:<kernel>, --runs times (claims.py
                         compares the report's speedup with it)
    wins                 (after the rounds, with --wins KERNELS.csv) the same
                         for each kernel of the program whose best version
                         beat the original by 3 % or more in that table
                         (analyze.py's: fixed:<tag> moves every kernel at
                         once), so each win is timed with the other kernels
                         on the original (inprogram.py reads it)

each under the CUPTI tracer (CUDA_INJECTION64_PATH=kerntime.so), and checks
each run: exit status 0, no "FAIL" in the output, and "PASS" in it when the
nvcc build printed PASS.  Written under --out, appended as it goes so that a
run stopped by the deadline leaves whole programs behind:

    kernels.csv  program,mode,run,kernel,gpu_ns,launches   (clones,
                 named by benchlib.clone_split, counted as their kernel)
    runs.csv     program,mode,run,rc,check,wall_s,gpu_ns,launches,dropped
                 (check: ok, fail, nobinary, or tooslow: the nvcc warm-up
                 run took over --max-run-s twice and the program was left out)
    tags.csv     program,kernel,tag       (versions found for each kernel)
    choices.csv  program,mode,run,kernel,block,chosen,speedup,iterations,launches
                 (liborionrt's report of adaptive, cached and split runs)
    fail/        output of each failed run
    traces/      with --traces: every launch of each off, adaptive, split and fixed
                 run, <program>.<mode>.<run>.tsv.gz (trace_compact; fixed:<tag> as fixed_<tag>), and
                 the runtime's JSON report of each adaptive run,
                 <program>.adaptive.<run>.json: the input of tunesim
    status.txt   programs done, skipped by the deadline, elapsed time
Python 3 standard library only.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

_here = os.path.dirname(os.path.abspath(__file__))  # benchlib: beside it in a pack, else ../eval
sys.path[:0] = [_here, os.path.join(_here, '..', 'eval')]
import benchlib  # noqa: E402

SYMBOL = re.compile(rb'[A-Za-z_][A-Za-z0-9_]*__orion_[A-Za-z0-9_]*')
FAIL = re.compile(r'\bFAIL')
PASS = re.compile(r'PASS')


def read_programs(path):
    """requires programs.txt lines '<name> <class> <args...> # note'; returns [(name, cls, args)]"""
    progs = []
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].split()
            if line:
                progs.append((line[0], line[1], line[2:]))
    return progs


def base_kernel(name):
    """requires a traced kernel name; returns the kernel (a clone's: benchlib.clone_split)"""
    split = benchlib.clone_split(name)
    return split[0] if split else name


def trace_records(path):
    """requires a KERNTIME_OUT file (FileNotFoundError if none); returns ([(start ns, ns,
    blocks, name)] of the program's kernel executions in file order, dropped)"""
    rows, dropped = [], 0
    with open(path) as f:
        for line in f:
            if line.startswith('# dropped'):
                dropped = int(line.split()[2])
                continue
            p = line.rstrip('\n').split('\t')
            if len(p) >= 4 and p[3] != 'kerntime_warm':
                rows.append((int(p[0]), int(p[1]) - int(p[0]), p[2], p[3]))
    return rows, dropped


def per_kernel(rows):
    """requires trace_records' rows; returns {kernel: [ns, launches]} (clones as their kernel)"""
    per = {}
    for _, ns, _, name in rows:
        e = per.setdefault(base_kernel(name), [0, 0])
        e[0] += ns
        e[1] += 1
    return per


TRACE_MAX = 200000


def trace_compact(rows, dropped, dst):
    """requires trace_records' rows and dropped; writes dst (gzip): '# kernel <i> <name>'
    lines first, then one '<i> <ns> <blocks> <tag>' line per launch in start order (kernel
    i = the base kernel; tag: the clone's, or orig), at most TRACE_MAX of them, then
    '# rest <i> <ns> <launches>' per kernel for the launches left out and '# dropped <n>'"""
    import gzip
    rows = sorted(rows)
    ids, rest = {}, {}
    with gzip.open(dst + '.tmp', 'wt') as g:
        body = []
        for n, (_, ns, blocks, name) in enumerate(rows):
            split = benchlib.clone_split(name)
            base, tag = (split[0], split[1]) if split else (name, 'orig')
            if base not in ids:
                ids[base] = len(ids)
                g.write('# kernel %d %s\n' % (ids[base], base))
            if n < TRACE_MAX:
                body.append('%d %d %s %s\n' % (ids[base], ns, blocks, tag))
            else:
                r = rest.setdefault(ids[base], [0, 0])
                r[0] += ns
                r[1] += 1
        g.writelines(body)
        for i, (ns, cnt) in sorted(rest.items()):
            g.write('# rest %d %d %d\n' % (i, ns, cnt))
        g.write('# dropped %d\n' % dropped)
    os.replace(dst + '.tmp', dst)


def read_rows(path):
    """requires a CSV file written by Writer; returns its rows as dicts (none if missing)"""
    try:
        with open(path, newline='') as f:
            return list(csv.DictReader(f))
    except FileNotFoundError:
        return []


def binary_tags(path):
    """requires an Orion binary; returns {kernel: set of clone tags} found in it"""
    with open(path, 'rb') as f:
        data = f.read()
    tags = {}
    for m in SYMBOL.finditer(data):
        split = benchlib.clone_split(m.group(0).decode())
        if split and split[1] != 'split':
            tags.setdefault(split[0], set()).add(split[1])
    return tags


def report_rows(path):
    """requires a liborionrt JSON report file; returns its configs (empty if none)"""
    try:
        with open(path) as f:
            return json.load(f).get('configs', [])
    except (OSError, ValueError):
        return []


class Writer:
    """Appends rows to the CSV files under out, with headers on first use."""
    HEAD = {
        'kernels': 'program,mode,run,kernel,gpu_ns,launches',
        'runs': 'program,mode,run,rc,check,wall_s,gpu_ns,launches,dropped',
        'tags': 'program,kernel,tag',
        'choices': 'program,mode,run,kernel,block,chosen,speedup,iterations,launches',
    }

    def __init__(self, out):
        self.files = {}
        for name, head in self.HEAD.items():
            path = os.path.join(out, name + '.csv')
            new = not os.path.exists(path)
            f = open(path, 'a', newline='')
            if new:
                f.write(head + '\n')
            self.files[name] = (f, csv.writer(f, lineterminator='\n'))

    def row(self, name, *cols):
        f, w = self.files[name]
        w.writerow(cols)
        f.flush()


class Deadline(Exception):
    """The --deadline-s time has passed."""


# the modes whose runs keep liborionrt's report (choices.csv)
REPORTED = ('adaptive', 'cached', 'split')


class Runner:
    """Runs one program's binaries under the tracer and records the results."""

    def __init__(self, args, writer):
        self.a, self.w = args, writer
        self.deadline = time.time() + args.deadline_s
        self.kerntime = os.path.abspath(os.path.join(args.pack, 'kerntime.so'))
        self.tmp = tempfile.mkdtemp(prefix='corpus-')
        self.want_pass = False

    def run(self, prog, pdir, args, mode, run, env_extra, record=True):
        """requires pdir/<build binary>; runs once; returns (ok, output, per-kernel dict)"""
        if time.time() > self.deadline:
            raise Deadline()
        build = mode if mode in ('nvcc', 'clang') else 'orion'
        trace = os.path.join(self.tmp, 'trace.tsv')
        if not os.path.exists(os.path.join(pdir, build)):
            self.w.row('runs', prog, mode, run, -1, 'nobinary', 0, 0, 0, 0)
            return False, '', {}
        if os.path.exists(trace):
            os.remove(trace)
        env = dict(os.environ, CUDA_INJECTION64_PATH=self.kerntime, KERNTIME_OUT=trace)
        libdir = os.path.join(os.path.dirname(self.kerntime), 'lib')  # pack.sh: OpenMP runtimes
        if os.path.isdir(libdir):
            env['LD_LIBRARY_PATH'] = libdir + ':' + env.get('LD_LIBRARY_PATH', '')
        env.update(env_extra)
        t0 = time.time()
        try:
            p = subprocess.run([os.path.join('.', build)] + args, cwd=pdir, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=self.a.timeout)
            rc, out = p.returncode, p.stdout.decode(errors='replace')
        except subprocess.TimeoutExpired as e:
            rc, out = 124, (e.stdout or b'').decode(errors='replace') + '\n[timeout]'
        wall = time.time() - t0
        try:
            records, dropped = trace_records(trace)
            per = per_kernel(records)
        except FileNotFoundError:
            records, dropped, per = [], 0, None
        check = rc == 0 and not FAIL.search(out) and (not self.want_pass or PASS.search(out))
        check = check and per is not None
        if not record:
            return check, out, per or {}
        traced = mode in ('off', 'adaptive', 'split') or mode.startswith('fixed:')
        if self.a.traces and per is not None and traced:
            base = os.path.join(self.a.out, 'traces', '%s.%s.%s' % (prog, mode.replace(':', '_'), run))
            trace_compact(records, dropped, base + '.tsv.gz')
            rep = env_extra.get('ORION_REPORT')
            if mode == 'adaptive' and rep and os.path.exists(rep):
                shutil.copy(rep, base + '.json')
        tot = sum(v[0] for v in (per or {}).values())
        n = sum(v[1] for v in (per or {}).values())
        self.w.row('runs', prog, mode, run, rc, 'ok' if check else 'fail', '%.3f' % wall, tot, n,
                   dropped)
        for k, (ns, cnt) in sorted((per or {}).items()):
            self.w.row('kernels', prog, mode, run, k, ns, cnt)
        if not check:
            name = '%s.%s.%s.txt' % (prog, mode.replace(':', '_'), run)
            with open(os.path.join(self.a.out, 'fail', name), 'w') as f:
                f.write('rc %d, wall %.3f s\n%s' % (rc, wall, out[-20000:]))
        return check, out, per or {}

    def choices(self, prog, mode, run, report):
        for c in report_rows(report):
            vs = c.get('versions', [])
            ch = c.get('chosen')
            tag = vs[ch]['tag'] if isinstance(ch, int) and 0 <= ch < len(vs) else ch
            self.w.row('choices', prog, mode, run, base_kernel(str(c.get('kernel'))),
                       'x'.join(str(b) for b in c.get('block', [])), tag, c.get('speedup'),
                       c.get('iterations'), c.get('launches'))

    def program(self, prog, args):
        """requires prog packed; runs all its modes for --runs rounds"""
        pdir = os.path.join(self.a.pack, 'src', prog + '-cuda')
        for attempt in range(2):  # the first run may be cold (files, driver): time a warm one
            t0 = time.time()
            ok, out, _ = self.run(prog, pdir, args, 'nvcc', -1, {}, record=False)
            took = time.time() - t0
            if took <= self.a.max_run_s:
                break
        else:
            self.w.row('runs', prog, 'nvcc', -1, 0, 'tooslow', '%.3f' % took, 0, 0, 0)
            return 1
        self.want_pass = ok and bool(PASS.search(out))
        cache = os.path.join(self.tmp, prog + '.decisions')
        report = os.path.join(self.tmp, 'report.json')
        for f in (cache, report):
            if os.path.exists(f):
                os.remove(f)
        want = set(self.a.modes.split(','))
        if want & {'cached', 'fixed'}:
            self.run(prog, pdir, args, 'cached', -1, {'ORION_CACHE': cache, 'ORION_REPORT': report})
            self.choices(prog, 'cached', -1, report)
        tags = {k: set(v) for k, v in binary_tags(os.path.join(pdir, 'orion')).items()}
        for c in report_rows(report):
            for v in c.get('versions', []):
                tags.setdefault(base_kernel(str(c.get('kernel'))), set()).add(v.get('tag'))
        alltags = sorted({t for ts in tags.values() for t in ts} | {'orig'})
        if self.a.tags:
            alltags = [t for t in alltags if t in self.a.tags.split(',')]
        for k in sorted(tags):
            for t in sorted(tags[k] | {'orig'}):
                self.w.row('tags', prog, k, t)
        modes = [('nvcc', {}), ('clang', {}),
                 ('off', {'ORION_MODE': 'off', 'ORION_CACHE': 'off'}),
                 ('adaptive', {'ORION_MODE': 'adaptive', 'ORION_CACHE': 'off'}),
                 ('cached', {'ORION_CACHE': cache}),
                 ('split', {'ORION_MODE': 'adaptive', 'ORION_CACHE': 'off', 'ORION_SPLIT': '1'})]
        modes += [('fixed:' + t, {'ORION_MODE': 'fixed:' + t, 'ORION_CACHE': 'off'})
                  for t in alltags]
        modes = [(m, e) for m, e in modes if m.split(':')[0] in want]
        for r in range(self.a.runs):
            order = modes[r % len(modes):] + modes[:r % len(modes)]
            for mode, env in order:
                if mode in REPORTED:
                    env = dict(env, ORION_REPORT=report)
                    if os.path.exists(report):
                        os.remove(report)
                self.run(prog, pdir, args, mode, r, env)
                if mode in REPORTED:
                    self.choices(prog, mode, r, report)
        n, alone = 0, set()
        if 'claims' in want:
            alone |= {(r['kernel'], r['chosen']) for r in read_rows(
                os.path.join(self.a.out, 'choices.csv')) if r['program'] == prog and
                r['mode'] == 'adaptive' and r['chosen'] not in ('orig', 'None', '')}
        if 'wins' in want:
            alone |= {(r['kernel'], r['best_tag']) for r in self.a.wins_rows
                      if r['program'] == prog and r['best_tag'] not in ('orig', '') and
                      float(r['best_gain'] or 0) >= 0.03}
        if alone:
            for r in range(self.a.runs):
                for k, t in sorted(alone):
                    self.run(prog, pdir, args, 'alone:%s:%s' % (t, k), r,
                             {'ORION_MODE': 'fixed:%s=%s' % (k, t), 'ORION_CACHE': 'off'})
                    n += 1
        return 1 + bool(want & {'cached', 'fixed'}) + len(modes) * self.a.runs + n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pack', required=True, help='directory made by pack.sh')
    ap.add_argument('--out', required=True, help='result directory')
    ap.add_argument('--runs', type=int, default=3, help='rounds per mode (default 3)')
    ap.add_argument('--deadline-s', type=float, default=1e9,
                    help='stop starting programs once this many seconds have passed')
    ap.add_argument('--timeout', type=float, default=30, help='seconds per run')
    ap.add_argument('--max-run-s', type=float, default=3.0,
                    help="leave out a program whose first (nvcc) run takes longer (default 3)")
    ap.add_argument('--programs', default='', help='comma-separated subset, in this order')
    ap.add_argument('--modes', default='nvcc,clang,off,adaptive,cached,fixed',
                    help='comma-separated subset of nvcc,clang,off,adaptive,cached,split,fixed,'
                         'claims,wins')
    ap.add_argument('--wins', help="mode wins: analyze.py's kernels.csv naming each kernel's best version")
    ap.add_argument('--tags', default='',
                    help='comma-separated: the fixed modes time only these versions '
                         '(e.g. u4; default every version the binary has)')
    ap.add_argument('--traces', action='store_true',
                    help='keep every launch of the off, adaptive, split and fixed runs (traces/)')
    a = ap.parse_args()
    bad = set(a.modes.split(',')) - {'nvcc', 'clang', 'off', 'adaptive', 'cached', 'split',
                                     'fixed', 'claims', 'wins'}
    if bad:
        sys.exit('measure.py: --modes: unknown mode(s) ' + ','.join(sorted(bad)))
    if ('wins' in a.modes.split(',')) != bool(a.wins):
        sys.exit('measure.py: mode wins and --wins KERNELS.csv go together')
    if a.wins and not os.path.isfile(a.wins):
        sys.exit('measure.py: --wins: %s: no such file' % a.wins)
    a.wins_rows = read_rows(a.wins) if a.wins else []  # read once, for every program
    progs = read_programs(os.path.join(a.pack, 'programs.txt'))
    if a.programs:
        want = a.programs.split(',')
        known = {p[0]: p for p in progs}
        missing = [w for w in want if w not in known]
        if missing:
            sys.exit('measure.py: not in programs.txt: ' + ','.join(missing))
        progs = [known[w] for w in want]
    os.makedirs(os.path.join(a.out, 'fail'), exist_ok=True)
    if a.traces:
        os.makedirs(os.path.join(a.out, 'traces'), exist_ok=True)
    shutil.copy(os.path.join(a.pack, 'programs.txt'), os.path.join(a.out, 'programs.txt'))
    runner = Runner(a, Writer(a.out))
    t0, done, partial, skipped = time.time(), [], [], []
    for name, _cls, args in progs:
        if not os.path.isdir(os.path.join(a.pack, 'src', name + '-cuda')) or partial:
            skipped.append(name)
            continue
        s = time.time()
        try:
            n = runner.program(name, args)
        except Deadline:
            partial.append(name)
            continue
        done.append(name)
        print('%-16s %3d runs %6.1f s' % (name, n, time.time() - s), flush=True)
    status = 'done %d: %s\npartial %d: %s\nskipped %d: %s\nelapsed %.1f s\n' % (
        len(done), ' '.join(done), len(partial), ' '.join(partial), len(skipped),
        ' '.join(skipped), time.time() - t0)
    with open(os.path.join(a.out, 'status.txt'), 'w') as f:
        f.write(status)
    print(status, end='')


if __name__ == '__main__':
    main()
