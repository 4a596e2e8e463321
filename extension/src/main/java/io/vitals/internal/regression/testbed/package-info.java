/**
 * Internal: the testbed a build ran on, what a figure depends on that is not the code (CPUs, memory, kernel,
 * cgroup version, engine, probe, container limits), so that the run history judges like with like. Not part of the
 * public API; may change without notice.
 */
package io.vitals.internal.regression.testbed;
