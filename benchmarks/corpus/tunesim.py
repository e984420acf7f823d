#!/usr/bin/env python3
"""tunesim.py - adaptive selection replayed on the corpus's measured traces.

    tunesim.py RAW [RAW...] --sim build/benchmarks/corpus/tunesim --out DIR
               [--programs a,b] [-- tunesim options: --budget F --set field=value]

RAW: result directories of measure.py --traces (traces/ holds every launch of
each off, adaptive and fixed:<tag> run, and the runtime's report of each
adaptive run).  For each program and round r, each kernel that the report
shows tuned in one launch configuration is replayed by tunesim (tunesim.c
says how): every launch costs what the version the tuner picks took on that
very launch when the program ran on that version alone.  Each round is
replayed twice: every version's times from round r, and the original's from
round r with the other versions' from the next round (so the noise between
runs reaches the decisions).  A program whose launches differ between its
fixed runs (count or grid) is replayed only for its kernels that agree.

Written under --out:
  kernels.csv  program,kernel,launches,orig_ms,best_tag,best_ms,sim_ms (median
               over the replays),measured_ms (the adaptive runs' median),
               gain,captured,chosen (per replay),speedup (the tuner's claim,
               per replay),alone (orig/chosen timed alone, per replay),
               iterations,waits
  programs.csv program,orig_ms,sim_ms,measured_ms,oracle_ms,sim_over_orig
  tunesim.md   the acceptance lines of the do-no-harm goal, on the replays
Python 3 standard library only.
"""
import argparse
import csv
import functools
import glob
import gzip
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict


@functools.lru_cache(maxsize=None)  # each round's traces serve two replays and the next round's
def read_trace(path):
    """requires a trace_compact file; returns ({kernel: [(ns, blocks, tag)]}, {kernel: [ns, n]} rest),
    not to be changed (cached)"""
    names, per, rest = {}, defaultdict(list), {}
    with gzip.open(path, 'rt') as f:
        for line in f:
            p = line.split()
            if line.startswith('# kernel'):
                names[p[2]] = p[3]
            elif line.startswith('# rest'):
                rest[names[p[2]]] = [int(p[3]), int(p[4])]
            elif not line.startswith('#') and len(p) == 4:
                per[names[p[0]]].append((int(p[1]), int(p[2]), p[3]))
    return per, rest


def order_of(path):
    """requires a trace_compact file; returns [(kernel, index of the kernel's launch)] in order"""
    names, seq, count = {}, [], defaultdict(int)
    with gzip.open(path, 'rt') as f:
        for line in f:
            p = line.split()
            if line.startswith('# kernel'):
                names[p[2]] = p[3]
            elif not line.startswith('#') and len(p) == 4:
                k = names[p[0]]
                seq.append((k, count[k]))
                count[k] += 1
    return seq


def total_ms(per, rest, k):
    t = sum(x[0] for x in per.get(k, [])) + rest.get(k, [0, 0])[0]
    return t * 1e-6


def find_runs(raws, prog):
    """requires raw dirs; returns {round: {mode: path}} for prog's traces and reports"""
    runs = defaultdict(dict)
    for raw in raws:
        for path in glob.glob(os.path.join(raw, 'traces', prog + '.*')):
            base = os.path.basename(path)[len(prog) + 1:]
            mode, rnd = base.split('.')[0], base.split('.')[1]
            key = 'report' if base.endswith('.json') else mode
            runs[(raw, rnd)][key] = path
    return {k: v for k, v in runs.items() if 'report' in v and 'off' in v}


def tuned_configs(report):
    """requires a report path; returns {kernel: config} for kernels tuned in one configuration"""
    with open(report) as f:
        cfgs = json.load(f).get('configs', [])
    by = defaultdict(list)
    for c in cfgs:
        by[c['kernel']].append(c)
    return {k: v[0] for k, v in by.items()
            if len(v) == 1 and v[0].get('source') in ('tuning', 'tuned', 'reverted')
            and len(v[0].get('versions', [])) > 1 and 'risk' in v[0]['versions'][0]}


def aligned(traces, k, tags):
    """1 when kernel k ran the same launches (count, grids) on every version"""
    seqs = [traces[t][0].get(k) for t in tags]
    if any(s is None for s in seqs):
        return False
    n = len(seqs[0])
    return n > 0 and all(len(s) == n and all(a[1] == b[1] for a, b in zip(s, seqs[0]))
                         for s in seqs)


def scenario(cfgs, traces, seq, ids):
    """requires the tuned configs, per-tag traces, the off run's order; returns the text"""
    out = []
    for k, i in ids.items():
        c = cfgs[k]
        vs = c['versions']
        orig = [v['tag'] for v in vs].index(c['original'])
        b = c['block']
        out.append('config %d %d %d %d %d %d %s' % (i, len(vs), orig, c.get('dir', 1) or 1,
                                                   b[0] * b[1] * b[2], c.get('sms', 132), k))
        for j, v in enumerate(vs):
            out.append('cand %d %d %s %d %d %d %g' % (i, j, v['tag'], v['warps'],
                                                      1 if v.get('pad') else 0,
                                                      v.get('shares_orig', 0), v['risk']))
    for k, j in seq:
        if k not in ids:
            continue
        tags = [v['tag'] for v in cfgs[k]['versions']]
        first = traces[tags[0]][0][k]
        if j >= len(first):
            continue
        ms = ['%.6f' % (max(traces[t][0][k][j][0], 1) * 1e-6) for t in tags]
        out.append('launch %d %d %s' % (ids[k], first[j][1], ' '.join(ms)))
    return '\n'.join(out) + '\n'


SCENARIO = {}  # --scenario: the path, until the first replay is written there


def replay(sim, simargs, text):
    if SCENARIO.get('path'):
        with open(SCENARIO.pop('path'), 'w') as f:
            f.write(text)
    p = subprocess.run([sim] + simargs, input=text.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode:
        sys.exit('tunesim.py: tunesim failed: ' + p.stderr.decode())
    res = {}
    for line in p.stdout.decode().splitlines():
        f = line.split()
        res[int(f[1])] = dict(ms=float(f[2]), chosen=f[3], iters=int(f[4]), speedup=float(f[5]),
                              half=float(f[6]), pairs=int(f[7]), waits=int(f[10]))
    return res


def program(prog, raws, sim, simargs):
    """requires prog's traces; returns (kernel rows, program row) or None"""
    read_trace.cache_clear()  # one program's traces at a time
    runs = find_runs(raws, prog)
    keys = sorted(runs)
    if not keys:
        return None
    per_kernel = defaultdict(lambda: defaultdict(list))
    prog_tot = defaultdict(list)
    for n, key in enumerate(keys):
        files = runs[key]
        cfgs = tuned_configs(files['report'])
        other = runs[keys[(n + 1) % len(keys)]]
        seq = order_of(files['off'])
        for variant, src in (('same', files), ('cross', other)):
            if variant == 'cross' and len(keys) < 2:
                continue
            traces = {}
            for mode, path in list(files.items()):
                if mode.startswith('fixed_'):
                    tag = mode[6:]
                    p = path if tag == 'orig' or variant == 'same' else src.get(mode)
                    if p:
                        traces[tag] = read_trace(p)
            if 'orig' not in traces:
                continue
            ids = {}
            for k, c in cfgs.items():
                tags = [v['tag'] for v in c['versions']]
                if all(t in traces for t in tags) and aligned(traces, k, tags):
                    ids[k] = len(ids)
            res = replay(sim, simargs, scenario(cfgs, traces, seq, ids)) if ids else {}
            orig_per, orig_rest = traces['orig']
            tot_orig = tot_sim = tot_best = 0.0
            for k in orig_per:
                o = total_ms(orig_per, orig_rest, k)
                tot_orig += o
                if k not in ids:
                    tot_sim += o
                    tot_best += o
                    continue
                r = res[ids[k]]
                tags = [v['tag'] for v in cfgs[k]['versions']]
                alone = {t: total_ms(*traces[t], k) for t in tags}
                # launches past the traced ones ran the choice: its mean time per launch
                extra = orig_rest.get(k, [0, 0])[1]
                chosen_rest = traces[r['chosen']][1].get(k, [0, 0])
                sim_ms = r['ms'] + (chosen_rest[0] * 1e-6 if extra else 0)
                tot_sim += sim_ms
                tot_best += min(alone.values())
                d = per_kernel[k]
                d['launches'].append(len(orig_per[k]) + extra)
                d['sim'].append(sim_ms)
                for t, v in alone.items():
                    d['alone:' + t].append(v)
                d['chosen'].append(r['chosen'])
                d['speedup'].append(r['speedup'])
                d['alone_ratio'].append(alone['orig'] / alone[r['chosen']])
                d['iters'].append(r['iters'])
                d['waits'].append(r['waits'])
            prog_tot['orig'].append(tot_orig)
            prog_tot['sim'].append(tot_sim)
            prog_tot['best'].append(tot_best)
        if 'adaptive' in files:
            a_per, a_rest = read_trace(files['adaptive'])
            prog_tot['measured'].append(sum(total_ms(a_per, a_rest, k) for k in a_per))
            for k in per_kernel:
                per_kernel[k]['measured'].append(total_ms(a_per, a_rest, k))
    med = lambda xs: statistics.median(xs) if xs else float('nan')  # noqa: E731
    rows = []
    for k, d in sorted(per_kernel.items()):
        alone = {key[6:]: med(v) for key, v in d.items() if key.startswith('alone:')}
        best = min(alone, key=alone.get)
        o, b, s = alone['orig'], alone[best], med(d['sim'])
        gain = o / b - 1
        rows.append(dict(program=prog, kernel=k, launches=med(d['launches']), orig_ms=o,
                         best_tag=best, best_ms=b, sim_ms=s, measured_ms=med(d['measured']),
                         gain=gain, captured=(o - s) / (o - b) if o > b else float('nan'),
                         chosen=' '.join(d['chosen']),
                         speedup=' '.join('%.3f' % x for x in d['speedup']),
                         alone=' '.join('%.3f' % x for x in d['alone_ratio']),
                         iterations=med(d['iters']), waits=med(d['waits'])))
    prow = dict(program=prog, orig_ms=med(prog_tot['orig']), sim_ms=med(prog_tot['sim']),
                measured_ms=med(prog_tot['measured']), oracle_ms=med(prog_tot['best']))
    prow['sim_over_orig'] = prow['sim_ms'] / prow['orig_ms'] if prow['orig_ms'] else float('nan')
    return rows, prow


def fmt(v):
    return '%.4g' % v if isinstance(v, float) else v


def write(out, krows, prows):
    os.makedirs(out, exist_ok=True)
    for name, rows in (('kernels', krows), ('programs', prows)):
        if not rows:
            continue
        with open(os.path.join(out, name + '.csv'), 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator='\n')
            w.writeheader()
            for r in rows:
                w.writerow({k: fmt(v) for k, v in r.items()})
    harm = [p for p in prows if p['sim_over_orig'] > 1.01]
    big = [r for r in krows if r['orig_ms'] >= 1]
    near = [r for r in big if r['best_ms'] / r['sim_ms'] >= 0.98]
    wins = [r for r in krows if r['gain'] >= 0.03]
    cap = [r for r in wins if r['captured'] >= 0.8]
    agree = [(p['program'], p['sim_ms'] / p['measured_ms']) for p in prows
             if p['measured_ms'] == p['measured_ms'] and p['measured_ms'] > 0]
    off = ['%s %.3f' % a for a in agree if abs(a[1] - 1) > 0.01]
    lines = ['# Adaptive selection replayed on measured traces (tunesim)', '',
             '* Replayed/orig <= 1.01 per program: %d of %d%s' % (
                 len(prows) - len(harm), len(prows),
                 '; over: ' + ', '.join('%s %.3f' % (p['program'], p['sim_over_orig'])
                                        for p in harm) if harm else ''),
             '* Replayed >= 0.98 x oracle on kernels >= 1 ms: %d of %d' % (len(near), len(big)),
             '* Wins >= 3 %%: %d kernels, >= 80 %% captured on %d' % (len(wins), len(cap)),
             '* Replayed against the measured adaptive runs: within 1 %% on %d of %d programs%s' % (
                 len(agree) - len(off), len(agree), '; off: ' + ', '.join(off) if off else ''),
             '',
             '| program | kernel | launches | best | gain | captured | chosen | claimed | alone |'
             ' iters | waits |', '|---|---|---:|---|---:|---:|---|---|---|---:|---:|']
    for r in krows:
        if r['gain'] >= 0.03 or r['chosen'].replace('orig', '').strip():
            lines.append('| %s | %s | %d | %s | %.1f%% | %.0f%% | %s | %s | %s | %d | %d |' % (
                r['program'], r['kernel'][:40], r['launches'], r['best_tag'], 100 * r['gain'],
                100 * r['captured'] if r['captured'] == r['captured'] else 0, r['chosen'],
                r['speedup'], r['alone'], r['iterations'], r['waits']))
    with open(os.path.join(out, 'tunesim.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines[2:6]))


def main():
    argv = sys.argv[1:]
    simargs = []
    if '--' in argv:
        simargs = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+', help='measure.py --traces result directories')
    ap.add_argument('--sim', required=True, help='the tunesim binary')
    ap.add_argument('--out', required=True)
    ap.add_argument('--programs', default='')
    ap.add_argument('--scenario', help='write the first replay of the one program to this file')
    a = ap.parse_args(argv)
    SCENARIO['path'] = a.scenario
    progs = sorted({os.path.basename(p).split('.')[0] for raw in a.raw
                    for p in glob.glob(os.path.join(raw, 'traces', '*.json'))})
    if a.programs:
        progs = [p for p in progs if p in a.programs.split(',')]
    krows, prows = [], []
    for prog in progs:
        got = program(prog, a.raw, a.sim, simargs)
        if got:
            krows += got[0]
            prows.append(got[1])
    write(a.out, krows, prows)


if __name__ == '__main__':
    main()
