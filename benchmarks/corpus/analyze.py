#!/usr/bin/env python3
"""analyze.py - the corpus tables from measure.py's raw CSVs.

    analyze.py RAWDIR... [--out results] [--prefix ''] [--build-csv build.csv]

Each RAWDIR holds kernels.csv, runs.csv, tags.csv and choices.csv (measure.py);
several (one per GPU call) are read as one.
Only runs whose output check passed count.  Times are GPU kernel time (the
sum of every traced kernel execution of a run), in ms; medians over runs.
Writes under --out (file names prefixed by --prefix):

  programs.csv  per program: program,class,nvcc_ms,clang_ms,off_ms,adaptive_ms,
                cached_ms,oracle_ms, the ratios adaptive/off, cached/off and
                oracle/adaptive, the spread ((max-min)/median) of off and
                adaptive, runs counted and failed
  kernels.csv   per kernel: launches, nvcc/clang/off/adaptive/cached ms, each
                fixed version's ms, the fastest (oracle), oracle/adaptive, the
                gain of the best version over orig and the part adaptive kept,
                what liborionrt chose in the adaptive runs, and the part each
                cached run kept, in run order
  corpus.md     the tables and the acceptance checks
  corpus.png    (matplotlib) or corpus.svg (without it): ratios per program
"""
import argparse
import csv
import os
import statistics
import sys

MODES = ('nvcc', 'clang', 'off', 'adaptive', 'cached')


def read_csv(path):
    """requires a CSV file with a header; returns its rows as dicts ([] if absent)"""
    if not os.path.exists(path):
        return []
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def read_raw(dirs, name):
    """requires measure.py output dirs; returns the rows of name.csv of them all"""
    return [r for d in dirs for r in read_csv(os.path.join(d, name + '.csv'))]


def med(xs):
    return statistics.median(xs) if xs else None


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(x, spec='.4g'):
    return '' if x is None else (format(x, spec) if isinstance(x, float) else str(x))


def fixed_column(fixed):
    """kernels.csv's `fixed` column: 'tag=ms ...' from {tag: ms}."""
    return ' '.join('%s=%.4g' % (t, v) for t, v in sorted(fixed.items()))


def fixed_times(row):
    """{tag: ms} from a kernels.csv row's `fixed` column."""
    out = {}
    for item in (row.get('fixed') or '').split():
        tag, _, ms = item.partition('=')
        out[tag] = float(ms)
    return out


class Data:
    """The raw rows, indexed: ok runs, per-run kernel times, tags, choices."""

    def __init__(self, raw):
        runs = read_raw(raw, 'runs')
        self.runs = [r for r in runs if r['run'] != '-1']
        self.ok = {(r['program'], r['mode'], r['run']) for r in self.runs if r['check'] == 'ok'}
        self.fails = [r for r in self.runs if r['check'] != 'ok']
        self.kt = {}   # (program, mode) -> {run: {kernel: (ns, launches)}}
        for r in read_raw(raw, 'kernels'):
            key = (r['program'], r['mode'], r['run'])
            if key in self.ok:
                self.kt.setdefault(key[:2], {}).setdefault(r['run'], {})[r['kernel']] = (
                    int(r['gpu_ns']), int(r['launches']))
        for (p, m, run) in self.ok:   # an ok run with no kernel traced counts as 0
            self.kt.setdefault((p, m), {}).setdefault(run, {})
        self.tags = {}
        for r in read_raw(raw, 'tags'):
            self.tags.setdefault((r['program'], r['kernel']), set()).add(r['tag'])
        self.choices = {}
        for r in read_raw(raw, 'choices'):
            if r['mode'] == 'adaptive':
                self.choices.setdefault((r['program'], r['kernel']), []).append(r['chosen'])
        self.programs = sorted({r['program'] for r in self.runs})

    def modes(self, p):
        return sorted({m for (q, m) in self.kt if q == p})

    def prog_times(self, p, m):
        """requires program p, mode m; returns the ok runs' total ms"""
        return [sum(v[0] for v in ks.values()) / 1e6 for ks in self.kt.get((p, m), {}).values()]

    def kern_ms(self, p, m, k):
        """requires p, m, kernel k; returns the median ms of k over m's ok runs"""
        runs = self.kt.get((p, m), {})
        return med([ks.get(k, (0, 0))[0] / 1e6 for ks in runs.values()])

    def kernels(self, p):
        return sorted({k for (q, m), runs in self.kt.items() if q == p
                       for ks in runs.values() for k in ks})

    def fixed_tags(self, p, k):
        """requires p, k; the tags k has (tags.csv), else every fixed mode run"""
        have = {m[6:] for m in self.modes(p) if m.startswith('fixed:')}
        t = self.tags.get((p, k))
        return sorted(have & t) if t else sorted(have)


def kernel_rows(d, p):
    """requires program p; returns one dict per kernel of p"""
    rows = []
    for k in d.kernels(p):
        r = {'program': p, 'kernel': k}
        runs = d.kt.get((p, 'off'), {})
        r['launches'] = med([ks.get(k, (0, 0))[1] for ks in runs.values()])
        for m in MODES:
            r[m + '_ms'] = d.kern_ms(p, m, k)
        fixed = {t: d.kern_ms(p, 'fixed:' + t, k) for t in d.fixed_tags(p, k)}
        fixed = {t: v for t, v in fixed.items() if v is not None}
        if fixed and 'orig' not in fixed and r['off_ms'] is not None:
            fixed['orig'] = r['off_ms']  # measure.py --tags without orig: off runs the original
        best = min(fixed, key=fixed.get) if fixed else None
        r['orig_ms'] = fixed.get('orig')
        r['best_tag'] = best
        r['oracle_ms'] = fixed[best] if best else None
        r['oracle_over_adaptive'] = ratio(r['oracle_ms'], r['adaptive_ms'])
        gain = ratio(r['orig_ms'], r['oracle_ms'])
        r['best_gain'] = gain - 1 if gain else None
        captured = None
        if r['orig_ms'] and r['oracle_ms'] is not None and r['adaptive_ms'] is not None \
                and r['orig_ms'] > r['oracle_ms']:
            captured = (r['orig_ms'] - r['adaptive_ms']) / (r['orig_ms'] - r['oracle_ms'])
        r['captured'] = captured
        r['chosen'] = ' '.join(d.choices.get((p, k), []))
        r['fixed'] = fixed_column(fixed)
        # the cached runs in order (each learns from the runs before it)
        cached = d.kt.get((p, 'cached'), {})
        r['cached_captured_by_run'] = ' '.join(
            '%.2f' % ((r['orig_ms'] - cached[run].get(k, (0, 0))[0] / 1e6) /
                      (r['orig_ms'] - r['oracle_ms']))
            for run in sorted(cached, key=int)) if captured is not None else ''
        rows.append(r)
    return rows


def program_row(d, p, krows, classes):
    """requires program p and its kernel rows; returns its programs.csv row"""
    r = {'program': p, 'class': classes.get(p, '')}
    spread = {}
    for m in MODES:
        xs = d.prog_times(p, m)
        r[m + '_ms'] = med(xs)
        spread[m] = (max(xs) - min(xs)) / med(xs) if len(xs) > 1 and med(xs) else None
    orc = [k['oracle_ms'] for k in krows]
    r['oracle_ms'] = sum(orc) if orc and None not in orc else None
    r['adaptive_over_off'] = ratio(r['adaptive_ms'], r['off_ms'])
    r['cached_over_off'] = ratio(r['cached_ms'], r['off_ms'])
    r['oracle_over_adaptive'] = ratio(r['oracle_ms'], r['adaptive_ms'])
    r['off_spread'] = spread['off']
    r['adaptive_spread'] = spread['adaptive']
    r['nvcc_spread'] = spread['nvcc']
    r['runs_ok'] = sum(1 for x in d.runs if x['program'] == p and x['check'] == 'ok')
    r['runs_failed'] = sum(1 for x in d.fails if x['program'] == p)
    r['kernels'] = len(krows)
    return r


def write_text(path, text):
    """writes text to path atomically: a .tmp file beside it, then renamed over it"""
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def emit(lines, path=None):
    """prints the Markdown lines and, with path, writes them there too (write_text)"""
    text = '\n'.join(lines) + '\n'
    if path:
        write_text(path, text)
    print(text, end='')


def write_csv(path, rows):
    if not rows:
        return
    with open(path + '.tmp', 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator='\n')
        w.writeheader()
        for r in rows:
            w.writerow({k: fmt(v) if isinstance(v, float) else ('' if v is None else v)
                        for k, v in r.items()})
    os.replace(path + '.tmp', path)


def checks(prows, krows):
    """requires the rows; returns Markdown lines of the acceptance checks"""
    out = ['## Acceptance checks', '']
    ad = [r for r in prows if r['adaptive_over_off'] is not None]
    miss = [r for r in ad if r['adaptive_over_off'] > 1.01]
    out.append('* Adaptive (tuning included) <= 1.01 x off, per program: met on %d of %d%s' % (
        len(ad) - len(miss), len(ad), '; missed: ' + ', '.join(
            '%s %.3f (noise: off %s, adaptive %s)' % (
                r['program'], r['adaptive_over_off'], fmt(r['off_spread'], '.1%'),
                fmt(r['adaptive_spread'], '.1%')) for r in miss) if miss else ''))
    big = [k for k in krows if k['oracle_over_adaptive'] is not None
           and (k['off_ms'] or 0) >= 1.0]
    bad = [k for k in big if k['oracle_over_adaptive'] < 0.98]
    share = (len(big) - len(bad)) / len(big) if big else 0
    out.append('* Select >= 0.98 x oracle on kernels >= 1 ms: met on %d of %d (%.0f %%, goal 95 %%)%s'
               % (len(big) - len(bad), len(big), 100 * share, '; missed: ' + ', '.join(
                   '%s:%s %.3f (chose %s, best %s)' % (k['program'], k['kernel'][:40],
                                                       k['oracle_over_adaptive'], k['chosen'] or '-',
                                                       k['best_tag']) for k in bad) if bad else ''))
    gains = [k for k in krows if k['best_gain'] is not None and k['best_gain'] >= 0.03]
    low = [k for k in gains if k['captured'] is None or k['captured'] < 0.8]
    out.append('* Kernels where a fixed version beats orig by >= 3 %% (timed alone): %d; '
               'adaptive captures >= 80 %% of the gain on %d' % (len(gains), len(gains) - len(low)))
    last = [k for k in gains if k['cached_captured_by_run'] and
            float(k['cached_captured_by_run'].split()[-1]) >= 0.8]
    out.append('* With the decision cache (runs 2, 3, ... of the same program): the last cached '
               'run captures >= 80 %% of the gain on %d of %d' % (len(last), len(gains)))
    out += ['', '| program | kernel | orig ms | best | best ms | gain | adaptive ms | captured | '
            'chosen | cached runs: captured |', '|---|---|---:|---|---:|---:|---:|---:|---|---|']
    for k in gains:
        out.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            k['program'], k['kernel'][:40], fmt(k['orig_ms']), k['best_tag'], fmt(k['oracle_ms']),
            fmt(k['best_gain'], '.1%'), fmt(k['adaptive_ms']), fmt(k['captured'], '.0%'),
            k['chosen'], ' '.join('%.0f%%' % (100 * float(x))
                                  for x in k['cached_captured_by_run'].split())))
    return out + ['']


def markdown(prows, krows, fails, builds):
    """requires the rows; returns corpus.md's text"""
    out = ['# Third-party corpus: GPU kernel time per program', '',
           'Medians of the runs whose output check passed, ms of GPU kernel time '
           '(CUPTI).  spread = (max - min) / median over runs.', '']
    if builds:
        ok = {}
        for b in builds:
            ok.setdefault(b['build'], [0, 0])[b['status'] != 'ok'] += 1
        out.append('Builds: ' + ', '.join('%s %d ok, %d failed' % (b, v[0], v[1])
                                          for b, v in sorted(ok.items())) + '.')
        bad = sorted({'%s (%s)' % (b['program'], b['build']) for b in builds if b['status'] != 'ok'})
        if bad:
            out.append('Failed builds: ' + ', '.join(bad) + '.')
        out.append('')
    out += ['| program | class | nvcc | clang | off | adaptive | cached | oracle | adaptive/off '
            '| cached/off | oracle/adaptive | off spread | adaptive spread | failed runs |',
            '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    for r in prows:
        out.append('| ' + ' | '.join([r['program'], r['class']] + [fmt(r[c]) for c in (
            'nvcc_ms', 'clang_ms', 'off_ms', 'adaptive_ms', 'cached_ms', 'oracle_ms')] + [
            fmt(r[c], '.3f') for c in ('adaptive_over_off', 'cached_over_off',
                                       'oracle_over_adaptive')] + [
            fmt(r['off_spread'], '.1%'), fmt(r['adaptive_spread'], '.1%'),
            str(r['runs_failed'])]) + ' |')
    out += [''] + checks(prows, krows)
    if fails:
        out += ['## Failed runs', '', '| program | mode | run | rc |', '|---|---|---:|---:|']
        out += ['| %s | %s | %s | %s |' % (f['program'], f['mode'], f['run'], f['rc'])
                for f in fails]
        out.append('')
    return '\n'.join(out) + '\n'


def plot(prows, base):
    """requires programs rows; writes base.png (matplotlib) or base.svg; returns the file"""
    series = [('adaptive/off', 'adaptive_over_off'), ('cached/off', 'cached_over_off'),
              ('oracle/off', None)]
    rows = [r for r in prows if r['off_ms']]
    vals = [[(r[c] if c else ratio(r['oracle_ms'], r['off_ms'])) or 0 for r in rows]
            for _, c in series]
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return svg_plot([r['program'] for r in rows], series, vals, base + '.svg')
    fig, ax = plt.subplots(figsize=(max(8, 0.35 * len(rows)), 4))
    w = 0.8 / len(series)
    for i, (name, _) in enumerate(series):
        ax.bar([x + i * w for x in range(len(rows))], vals[i], w, label=name)
    ax.axhline(1.0, color='k', lw=0.8)
    ax.set_xticks([x + w for x in range(len(rows))])
    ax.set_xticklabels([r['program'] for r in rows], rotation=90, fontsize=7)
    ax.set_ylabel('GPU kernel time / Orion off')
    ax.legend(fontsize=7)
    fig.savefig(base + '.png', dpi=110, bbox_inches='tight')
    plt.close(fig)
    return base + '.png'


def svg_plot(names, series, vals, path):
    """requires names, series labels, values; writes a grouped bar chart as SVG"""
    colours = ('#4477aa', '#ee6677', '#228833')
    lo, hi = 0.8, max([1.2] + [v for vs in vals for v in vs])
    gw, h, top, left = 30, 260, 20, 50
    width = left + gw * len(names) + 20
    y = lambda v: top + h * (1 - (min(max(v, lo), hi) - lo) / (hi - lo))
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-size="9" '
         'font-family="sans-serif">' % (width, top + h + 110)]
    for t in (lo, 0.9, 1.0, 1.1, hi):
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s"/>' % (
            left, width - 20, y(t), y(t), 'black' if t == 1.0 else '#ddd'))
        s.append('<text x="%d" y="%.1f" text-anchor="end">%.2f</text>' % (left - 4, y(t) + 3, t))
    for i, n in enumerate(names):
        for j in range(len(series)):
            v = vals[j][i]
            x = left + gw * i + 3 + j * 8
            s.append('<rect x="%d" y="%.1f" width="7" height="%.1f" fill="%s"/>' % (
                x, min(y(v), y(1.0)), abs(y(1.0) - y(v)), colours[j]))
        s.append('<text transform="translate(%d,%d) rotate(60)">%s</text>' % (
            left + gw * i + 8, top + h + 8, n))
    for j, (name, _) in enumerate(series):
        s.append('<rect x="%d" y="4" width="8" height="8" fill="%s"/><text x="%d" y="11">%s</text>'
                 % (left + 110 * j, colours[j], left + 110 * j + 11, name))
    s.append('<text x="4" y="%d" transform="rotate(-90,10,%d)">time / Orion off</text>' % (
        top + h // 2, top + h // 2))
    with open(path, 'w') as f:
        f.write('\n'.join(s + ['</svg>']) + '\n')
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+', help="measure.py's --out directories")
    ap.add_argument('--out', default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  'results'))
    ap.add_argument('--prefix', default='', help='prefix of the written file names')
    ap.add_argument('--build-csv', default='', help="the build's build.csv, for its summary")
    ap.add_argument('--programs', default='',
                    help="program list for the classes (default: RAWDIR's, else this directory's)")
    a = ap.parse_args()
    if not a.programs:
        a.programs = os.path.join(a.raw[0], 'programs.txt')
        if not os.path.exists(a.programs):
            a.programs = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'programs.txt')
    d = Data(a.raw)
    if not d.programs:
        sys.exit('analyze.py: %s: no runs.csv rows' % ' '.join(a.raw))
    classes = {}
    with open(a.programs) as f:
        for line in f:
            w = line.split('#', 1)[0].split()
            if len(w) >= 2:
                classes[w[0]] = w[1]
    os.makedirs(a.out, exist_ok=True)
    krows, prows = [], []
    for p in d.programs:
        kr = kernel_rows(d, p)
        krows += kr
        prows.append(program_row(d, p, kr, classes))
    base = os.path.join(a.out, a.prefix)
    write_csv(base + 'programs.csv', prows)
    write_csv(base + 'kernels.csv', krows)
    last = {}   # a program rebuilt later: its last row counts
    for b in read_csv(a.build_csv) if a.build_csv else []:
        if b['program'] in classes:
            last[(b['program'], b['build'])] = b
    builds = [last[k] for k in sorted(last)]
    md = markdown(prows, krows, d.fails, builds)
    fig = plot(prows, base + 'corpus')
    md += '\n![ratios per program](%s)\n' % os.path.basename(fig)
    with open(base + 'corpus.md', 'w') as f:
        f.write(md)
    print(md)


if __name__ == '__main__':
    main()
