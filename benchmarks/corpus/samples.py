#!/usr/bin/env python3
"""samples.py - the runtime's tuning samples of one kernel against CUPTI's times of the same launches.

    samples.py --kernel NAME [--excess-us 8] [--event-us 3.4] DEBUG TRACE [DEBUG TRACE...]
    samples.py --by-timing [--margin-us 1] DEBUG TRACE [DEBUG TRACE...]
    samples.py --triples DEBUG TRACE [DEBUG TRACE...]

DEBUG: a run's stderr under ORION_DEBUG=1 (the lines "tune <kernel> launch
<n>: <tag> <blocks> blocks <ms> ms (...)", a time as the tuner got it, with
", gap possible" where rt.c's gap signal fired).  TRACE: the same run's
kerntime trace (KERNTIME_OUT: start ns, end ns, a count, the name).  NAME:
the kernel's mangled name; its clones are the traced names holding
`__orion_<tag>` with the same base name, and a padding version runs the
original's code (so its launches carry NAME).  The kernel must have run in
one launch configuration, on one stream: the runtime numbers launches per
configuration, and sample n is the n-th launch of NAME and its clones in
the trace by start time (a sample whose traced launch ran another version
is left out, counted).  The signal's level (rt.c: the stream seen drained
"before", "during" or "after" the launch; "" in lines from runtimes that
did not say) is kept: the last lines count hits and false alarms per level.

A sample's excess is the runtime's time less CUPTI's, less --event-us (the
events' own cost).  Distorted: an excess above --excess-us.  Prints the
distorted samples, then per run and in all: samples, distorted, those the
signal marked (hits), distorted ones unmarked (misses), clean ones marked
(false alarms).

--by-timing: every kernel of the debug lines (each as above), its samples'
excess (the runtime's time less CUPTI's, in us) per way of timing: `busy`
(the stream had work when the first event was recorded), `idle` (it had
none: the submission subtracted, rt.c), `busy, drained <level>` (the gap
signal), each split by whether the launch was chosen ahead.  One Markdown
row each: samples, the excess's median, 10th and 90th percentiles, and how
many exceed the median of the `busy` samples by more than --margin-us.
--triples: every three consecutive samples of a kernel of versions x, y,
x (a tuning pair, or a re-check) by how each was timed: B (busy stream) or
I (idle, its submission subtracted).  Mixed triples compare samples that
differ by more than the events' constant (--by-timing measures it).  Per
file with a mixed one, the counts; then one row per pattern: triples, those
joined with CUPTI, and the error of the runtime's ln y - (ln x1 + ln x2) / 2
against CUPTI's (median, 10th and 90th percentiles, in %).
Python 3 standard library only.
"""
import argparse
import functools
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triples  # noqa: E402

LINE = re.compile(r'tune (\S+) launch (\d+): (\S+) \d+ blocks ([0-9.]+) ms \((.*)\)$')
LEVEL = re.compile(r'gap possible(?:: drained (\w+) the launch)?')
IDLE = re.compile(r'tune (\S+): idle stream, ')


def debug_samples(path, kernel):
    """requires path an ORION_DEBUG stderr; returns [(launch, tag, ms, gap)] of kernel,
    gap None (not marked) or the signal's level ('' when the line names none)"""
    out = []
    for n, tag, ms, _, rest in debug_runs(path).get(kernel, []):
        g = LEVEL.search(rest)
        out.append((n, tag, ms, (g.group(1) or '') if g else None))
    return out


@functools.lru_cache(maxsize=None)  # every kernel of a run reads its one trace
def launches_of(path):
    """requires path a kerntime trace; triples.raw_launches of it, not to be changed"""
    return tuple(triples.raw_launches(path))


def traced(path, kernel):
    """requires path a kerntime trace; returns [(tag, ms)] of kernel's launches in start order
    (tag None: the original's code, the original or a padding version)"""
    rows = []
    for _, ms, name in launches_of(path):
        m = re.search(r'__orion_([a-z0-9]+)', name)
        if name == kernel:
            rows.append((None, ms))
        elif m and kernel_base(name) == kernel_base(kernel):
            rows.append((m.group(1), ms))
    return rows


def kernel_base(name):
    """the name without a clone's __orion_<tag> and the length before the first name part"""
    return re.sub(r'^_Z\d+', '_Z', re.sub(r'__orion_[a-z0-9]+', '', name))



def debug_runs(debug):
    """requires an ORION_DEBUG stderr; returns {kernel: [(launch, tag, ms, idle, rest)]} in
    line order (idle: the next line says the stream was idle; rest: the line's parenthesis)"""
    lines = open(debug, errors='replace').read().splitlines()
    out = {}
    for j, line in enumerate(lines):
        m = LINE.search(line)
        if m:
            k = m.group(1)
            idle = j + 1 < len(lines) and (IDLE.search(lines[j + 1]) or [None, None])[1] == k
            out.setdefault(k, []).append((int(m.group(2)), m.group(3), float(m.group(4)), idle,
                                          m.group(5)))
    return out


def percentile(v, f):
    """requires v sorted, not empty; its f-quantile (the lower one)"""
    return v[min(len(v) - 1, int(f * len(v)))]


def cupti_ms(launches, n, tag):
    """CUPTI's time of sample n (1-based) of tag in traced(...)'s launches, or None"""
    want = None if tag == 'orig' or re.match(r'p\d+$', tag) else tag
    return launches[n - 1][1] if n <= len(launches) and launches[n - 1][0] == want else None


def timing_excess(debug, trace):
    """requires a DEBUG TRACE pair; returns [(way of timing, excess us)] of every joinable sample"""
    out = []
    for k, seq in debug_runs(debug).items():
        launches = traced(trace, k)
        for n, tag, ms, idle, rest in seq:
            cu = cupti_ms(launches, n, tag)
            if cu is None:
                continue
            g = LEVEL.search(rest)
            way = 'idle' if idle else 'busy' + (f', drained {g.group(1) or "?"}' if g else '')
            way += ', ahead' if 'chosen ahead' in rest else ''
            out.append((way, (ms - cu) * 1e3))
    return out


def triple_errors(debug, trace):
    """requires a DEBUG TRACE pair; returns [(pattern, error)] of its x, y, x triples: B busy,
    I idle; error the runtime's ln y - (ln x1 + ln x2) / 2 less CUPTI's (None: not joined)"""
    out = []
    for k, seq in debug_runs(debug).items():
        launches = traced(trace, k)
        for a, b, c in zip(seq, seq[1:], seq[2:]):
            if not (a[1] == c[1] != b[1] and b[0] == a[0] + 1 and c[0] == b[0] + 1):
                continue
            pat = ''.join('I' if x[3] else 'B' for x in (a, b, c))
            cu = [cupti_ms(launches, x[0], x[1]) for x in (a, b, c)]
            err = None
            if None not in cu:
                lx = lambda t: math.log(t[1]) - (math.log(t[0]) + math.log(t[2])) / 2  # noqa: E731
                err = lx([x[2] for x in (a, b, c)]) - lx(cu)
            out.append((pat, err))
    return out


def print_triples(files):
    """prints the --triples table of DEBUG TRACE pairs"""
    pats = {}
    for debug, trace in zip(files[::2], files[1::2]):
        n = {}
        for pat, err in triple_errors(debug, trace):
            n[pat] = n.get(pat, 0) + 1
            pats.setdefault(pat, []).append(err)
        if any(k not in ('BBB', 'III') for k in n):
            print(f'{debug}: ' + ', '.join(f'{k} {v}' for k, v in sorted(n.items())))
    mixed = sum(len(v) for k, v in pats.items() if k not in ('BBB', 'III'))
    print(f'in all: {sum(len(v) for v in pats.values())} triples, {mixed} mixed')
    print('\nerror: the runtime\'s log-ratio of the middle sample to its neighbours less '
          'CUPTI\'s, in %\n')
    print('| timing | triples | joined | error median | p10 | p90 |\n|---|---:|---:|---:|---:|---:|')
    for pat, v in sorted(pats.items()):
        e = sorted(x * 100 for x in v if x is not None)
        q = lambda f: f'{percentile(e, f):.2f}' if e else '-'  # noqa: E731
        print(f'| {pat} | {len(v)} | {len(e)} | {q(.5)} | {q(.1)} | {q(.9)} |')


def by_timing(files, margin):
    """prints the --by-timing table of DEBUG TRACE pairs"""
    ways = {}
    for debug, trace in zip(files[::2], files[1::2]):
        for way, x in timing_excess(debug, trace):
            ways.setdefault(way, []).append(x)
    busy = sorted(ways.get('busy', []) + ways.get('busy, ahead', []))
    if not busy:
        sys.exit('samples.py: no busy-stream sample to measure the excess against')
    ref = percentile(busy, .5)
    print(f'excess over CUPTI (us); over: more than {ref:.2f} + {margin:g} (the busy samples\' median)')
    print('\n| timing | samples | median | p10 | p90 | over |\n|---|---:|---:|---:|---:|---:|')
    for way, v in sorted(ways.items()):
        v.sort()
        q = functools.partial(percentile, v)
        print(f'| {way} | {len(v)} | {q(.5):.2f} | {q(.1):.2f} | {q(.9):.2f} | '
              f'{sum(x > ref + margin for x in v)} |')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernel')
    ap.add_argument('--by-timing', action='store_true')
    ap.add_argument('--triples', action='store_true')
    ap.add_argument('--margin-us', type=float, default=1.0)
    ap.add_argument('--excess-us', type=float, default=8.0)
    ap.add_argument('--event-us', type=float, default=3.4)
    ap.add_argument('files', nargs='+', help='DEBUG TRACE pairs')
    a = ap.parse_args()
    if len(a.files) % 2:
        sys.exit('samples.py: DEBUG and TRACE files come in pairs')
    if a.triples:
        return print_triples(a.files)
    if a.by_timing:
        return by_timing(a.files, a.margin_us)
    if not a.kernel:
        sys.exit('samples.py: --kernel NAME or --by-timing')
    total = [0] * 6
    levels = {}  # level: [hits, false alarms]
    for debug, trace in zip(a.files[::2], a.files[1::2]):
        launches = traced(trace, a.kernel)
        n = [0] * 6  # samples, distorted, hits, misses, false alarms, left out
        for launch, tag, ms, level in debug_samples(debug, a.kernel):
            gap = level is not None
            cu = cupti_ms(launches, launch, tag)
            if cu is None:
                n[5] += 1
                continue
            excess = (ms - cu) * 1e3 - a.event_us
            bad = excess > a.excess_us
            n[0] += 1
            n[1] += bad
            n[2] += bad and gap
            n[3] += bad and not gap
            n[4] += gap and not bad
            if gap:
                levels.setdefault(level, [0, 0])[0 if bad else 1] += 1
            if bad:
                print(f'{debug}: launch {launch} {tag}: runtime {ms * 1e3:.1f} us, CUPTI '
                      f'{cu * 1e3:.1f} us{", gap possible" if gap else ""}'
                      f'{": drained " + level + " the launch" if level else ""}')
        total = [x + y for x, y in zip(total, n)]
        print(f'{debug}: {n[0]} samples, {n[1]} distorted: {n[2]} marked, {n[3]} missed; '
              f'{n[4]} clean ones marked; {n[5]} left out')
    print(f'in all: {total[0]} samples, {total[1]} distorted: {total[2]} marked, {total[3]} '
          f'missed; {total[4]} clean ones marked; {total[5]} left out')
    for level, (hit, false) in sorted(levels.items()):
        print(f'marked {level or "(no level)"}: {hit} distorted, {false} clean')


if __name__ == '__main__':
    main()
