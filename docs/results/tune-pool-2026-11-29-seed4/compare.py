#!/usr/bin/env python3
"""Two runs of one seed's stream side by side, job by job: A's job time over B's, with a
bootstrap interval over the jobs, and what each left on the HDDs and the SSD.
Usage: compare.py A.csv B.csv (the harness's runs/seed-<s>-<config>.csv files)."""
import csv, random, sys

def load(path):
    return {int(r['job']): r for r in csv.DictReader(open(path))}

a, b = load(sys.argv[1]), load(sys.argv[2])
jobs = sorted(set(a) & set(b))
t = lambda run, j: float(run[j]['seconds'])
def ratio(sample):
    return sum(t(a, j) for j in sample) / sum(t(b, j) for j in sample)
rng = random.Random(1)
boot = sorted(ratio([rng.choice(jobs) for _ in jobs]) for _ in range(10000))
print(f"jobs {len(jobs)}; A's time over B's: {ratio(jobs):.3f} "
      f"(95 % {boot[249]:.3f}-{boot[9749]:.3f}); above 1: B faster")
causes = ['hdd_hdfs_read_seconds', 'hdd_fill_read_seconds', 'hdd_hdfs_write_seconds',
          'hdd_local_read_seconds', 'hdd_local_write_seconds', 'hdd_shuffle_serve_seconds']
for name, run in (('A', a), ('B', b)):
    n = len(jobs)
    mean = lambda col: sum(float(run[j][col] or 0) for j in jobs) / n
    shuffle = sum(int(run[j]['shuffle_bytes']) for j in jobs)
    on_ssd = sum(int(run[j]['shuffle_bytes']) * float(run[j]['localized_on_ssd'] or 0)
                 for j in jobs) / shuffle
    blocks = sum(int(run[j]['input_bytes']) * float(run[j]['hit_ratio'] or 0) for j in jobs) \
        / sum(int(run[j]['input_bytes']) for j in jobs)
    whole = sum(float(run[j]['hit_ratio'] or 0) >= 0.99 for j in jobs) / n
    local = sum(mean(c) for c in causes[3:])
    print(f"{name}: mean job {mean('seconds'):.1f} s (map {mean('map_seconds'):.1f}, reduce "
          f"{mean('reduce_seconds'):.1f}); HDD s/job: " + ", ".join(
              f"{c[4:-8]} {mean(c):.1f}" for c in causes) + f"; local {local:.1f}; "
          f"localized on SSD by bytes {on_ssd:.0%}; input hits {blocks:.0%} of bytes, "
          f"whole jobs {whole:.0%}")
