/**
 * Internal: probes that read a container's figures from host cgroup files or the Docker Engine API. Not part of
 * the public API; may change without notice.
 */
package io.vitals.internal.probe;
