"""Time `symtf prove` (all claims, numeric checks included) end to end against the 10 s target.

Runs the command as a user would, in fresh processes, and prints the median wall time and its
ratio to the target. Also runs the symbolic-size claims alone, whose time must not depend on sizes.

    python benchmarks/prove.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

TARGET_SECONDS = 10.0


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(args: list[str]) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds (user + system of the child: what load on a shared machine does not inflate), report."""
    start, cpu = time.perf_counter(), _child_cpu()
    done = subprocess.run([sys.executable, "-m", "symtf", "prove", "--format", "json", *args],
                          capture_output=True, text=True, check=False)
    seconds, cpu = time.perf_counter() - start, _child_cpu() - cpu
    if done.returncode not in (0, 1):
        raise SystemExit(f"symtf prove failed ({done.returncode}): {done.stderr}")
    return seconds, cpu, json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    times, cpus, report = [], [], None
    for _ in range(args.repeat):
        seconds, cpu, report = run_once([])
        times.append(seconds)
        cpus.append(cpu)
    median = statistics.median(times)
    print(f"symtf prove (all {len(report['claims'])} claims): median {median:.2f} s over {args.repeat} runs "
          f"({', '.join(f'{t:.2f}' for t in times)}); target {TARGET_SECONDS:.0f} s; "
          f"ratio {median / TARGET_SECONDS:.2f} -> {'OK' if median <= TARGET_SECONDS else 'TOO SLOW'}")
    print(f"CPU time (user + system): median {statistics.median(cpus):.2f} s "
          f"({', '.join(f'{c:.2f}' for c in cpus)}); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    slow = sorted(report["claims"], key=lambda c: -c["seconds"])[:5]
    print("slowest proofs: " + ", ".join(f"{c['id']} {c['seconds']:.2f} s" for c in slow))
    symbolic = [c for c in report["claims"] if c["method"] == "symbolic"]
    print(f"symbolic-size proofs: {len(symbolic)}, {sum(c['seconds'] for c in symbolic):.2f} s in total "
          "(no size enters them)")
    return 0 if median <= TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
