/**
 * Internal: the kernel's cgroup and procfs text files as the host probe reads them: each kept open and read again at
 * offset 0, its bytes parsed in place without allocating (flat keyed, nested keyed, pair lines, block I/O, net/dev,
 * pressure); and the memory high-water mark's file, kept open to be written when a test resets the mark
 * ({@code MarkFile}). Knows nothing of containers, readings or budgets. Not part of
 * the public API; may change without notice.
 */
package io.vitals.internal.probe.cgroupfs;
