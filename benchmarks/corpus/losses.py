#!/usr/bin/env python3
"""losses.py - where an adaptive run's launches lose a win: per kernel with a
fixed version faster than the original, the gap between the run and the
best version, split by phase.

    losses.py --kernels KERNELS.csv RAW [RAW...] [--mode adaptive] [--min-gain 0.03]

KERNELS.csv: analyze.py's per-kernel table (launches, best_tag, best_gain and
`fixed`: each version's GPU time alone, over all its launches).  RAW:
measure.py --traces directories; each MODE run of a program has its trace
(traces/<program>.<mode>.<run>.tsv.gz) and report (.json).  A kernel is
counted in a run when its report has one configuration and the trace the
kernel's launches in the count KERNELS.csv gives.

Every launch costs what its version takes alone per launch (the `fixed`
time over the launches: no run-to-run noise), less what the best version
takes; the loss is summed by phase:
  wait      the original's launches before the first trial (the warm-up and
            launches whose trial the budget did not yet cover);
  baseline  the original's launches from the first trial to the report's
            settled_at (the pairs' neighbours);
  trials    launches of versions other than the choice before settling;
  choice    the chosen version's launches (its distance from the best);
  rechecks  the original's launches after settling (a run that never
            settled, settled_at 0, is all tuning).
A padding version runs the original's binary, so its launches read as the
original's: a run that chose one is left out, and its trials count as
baseline.  Prints one Markdown row per
kernel and run: the gain at stake (ms), then each phase's loss as a share of
it; 1 - their sum is the share captured.  Python 3 standard library only.
"""
import argparse
import csv
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tunesim  # noqa: E402

PHASES = ('wait', 'baseline', 'trials', 'choice', 'rechecks')


def alone_per_launch(row):
    """requires a KERNELS.csv row; returns {tag: ms per launch alone}"""
    n = int(row['launches'])
    out = {}
    for item in row['fixed'].split():
        tag, ms = item.split('=')
        out[tag] = float(ms) / n
    return out


def phase_losses(tags, chosen, settled, alone, best):
    """requires tags the versions launched, in order (padding versions read 'orig'), chosen
    not a padding version; returns {phase: ms lost against best}, or None when a launched
    version has no time alone"""
    settled = settled or len(tags)  # 0: tuning never settled (the best so far ran meanwhile)
    loss = dict.fromkeys(PHASES, 0.0)
    first = next((i for i, t in enumerate(tags) if t != 'orig'), len(tags))
    for i, tag in enumerate(tags):
        after = i + 1 > settled  # settled_at: the launch (1-based) during which tuning settled
        if tag not in alone:
            return None
        if tag == chosen:
            phase = 'choice'
        elif tag == 'orig':
            phase = 'rechecks' if after else 'wait' if i < first else 'baseline'
        else:
            phase = 'trials'
        loss[phase] += alone[tag] - alone[best]
    return loss


def rows(kernels, raws, mode, min_gain):
    """yields (program, kernel, run, gain ms, {phase: share})"""
    for r in kernels:
        if not r['best_gain'] or float(r['best_gain']) < min_gain or not r['fixed']:
            continue
        alone, best = alone_per_launch(r), r['best_tag']
        n = int(r['launches'])
        for raw in raws:
            for js in sorted(glob.glob(os.path.join(raw, 'traces', f"{r['program']}.{mode}.*.json"))):
                with open(js) as f:
                    cfgs = [c for c in json.load(f)['configs'] if c['kernel'] == r['kernel']]
                per, _ = tunesim.read_trace(js[:-len('.json')] + '.tsv.gz')
                tags = [t for _, _, t in per.get(r['kernel'], [])]
                if len(cfgs) != 1 or len(tags) != n or cfgs[0]['chosen'][0] == 'p':
                    continue
                loss = phase_losses(tags, cfgs[0]['chosen'], cfgs[0]['settled_at'], alone, best)
                gain = (alone['orig'] - alone[best]) * n
                if loss is not None and gain > 0:
                    yield (r['program'], r['kernel'], js.split('.')[-2], gain,
                           {p: v / gain for p, v in loss.items()})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+')
    ap.add_argument('--kernels', required=True)
    ap.add_argument('--mode', default='adaptive')
    ap.add_argument('--min-gain', type=float, default=0.03)
    a = ap.parse_args()
    with open(a.kernels, newline='') as f:
        kernels = list(csv.DictReader(f))
    print('| program | kernel | run | gain ms | captured | ' + ' | '.join(PHASES) + ' |')
    print('|---|---|---:|---:|---:|' + '---:|' * len(PHASES))
    for prog, kern, run, gain, share in rows(kernels, a.raw, a.mode, a.min_gain):
        print(f'| {prog} | {kern[:40]} | {run} | {gain:.4g} | {1 - sum(share.values()):.0%} | ' +
              ' | '.join(f'{share[p]:.0%}' for p in PHASES) + ' |')


if __name__ == '__main__':
    main()
