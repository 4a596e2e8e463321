#!/usr/bin/env python3
"""Where one thread's CPU went, from `perf script -F comm,tid,ip,sym,dso` output with call graphs (perf record -g):
each sample counted once, by its innermost frame (the kernel, libc, the JVM, the JDK's Java code, Vitals' Java
code) and by whether a file read (FileChannel, pread) stands anywhere on its stack. docs/benchmarks.md, "A busy tick
profiled", quotes its table; the JVM must have written its JIT symbols (-XX:+DumpPerfMapAtExit) for Java frames to
have names.

Usage: perf script -i perf.data --comm vitals-bench-1 -F comm,tid,ip,sym,dso | perf_leaf_split.py
"""
import collections
import re
import sys

READ = re.compile(r"pread|FileChannelImpl")


def layer(leaf):
    if "kernel.kallsyms" in leaf:
        return "kernel"
    if "libc" in leaf:
        return "libc"
    if "libjvm" in leaf:
        return "the JVM (libjvm)"
    if "io.vitals." in leaf:
        return "Vitals' code"
    if "[JIT]" in leaf or "perf-" in leaf:
        return "JDK code (JIT)"
    return "other"


def main():
    samples = [block.split("\n") for block in sys.stdin.read().strip().split("\n\n")]
    samples = [[line.strip() for line in block if line.strip()] for block in samples]
    samples = [block[1:] for block in samples if len(block) > 1]
    if not samples:
        sys.exit("no samples with a call graph on standard input (perf record -g, perf script -F ...,ip,sym,dso)")
    total = len(samples)
    by_layer = collections.Counter()
    under_read = collections.Counter()
    leaves = collections.Counter()
    for frames in samples:
        kind = layer(frames[0])
        by_layer[kind] += 1
        if any(READ.search(frame) for frame in frames):
            under_read[kind] += 1
        leaves[" ".join(frames[0].split()[1:-1])] += 1
    print(f"{total} samples")
    print(f"{'innermost frame':20} {'share':>7} {'of it under a file read':>25}")
    for kind, count in by_layer.most_common():
        print(f"{kind:20} {100 * count / total:6.1f}% {100 * under_read[kind] / total:24.1f}%")
    print(f"{'under a file read':20} {100 * sum(under_read.values()) / total:6.1f}%")
    print("\ninnermost frames, most frequent first:")
    for frame, count in leaves.most_common(25):
        print(f"{100 * count / total:6.2f}%  {frame}")


if __name__ == "__main__":
    main()
