/**
 * Internal: GPU figures per container, from {@code nvidia-smi} queries attributed to the container's processes
 * through its cgroup. Not part of the public API; may change without notice.
 */
package io.vitals.internal.gpu;
