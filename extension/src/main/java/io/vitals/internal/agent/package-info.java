/**
 * Internal: the Vitals agent, a JRE-only container that reads the cgroups of an engine the tests cannot see (Docker
 * Desktop, Docker-in-Docker, a remote engine) with the host probe's readers, its wire protocol and the probe that
 * talks to it. Not part of the public API; may change without notice.
 */
package io.vitals.internal.agent;
