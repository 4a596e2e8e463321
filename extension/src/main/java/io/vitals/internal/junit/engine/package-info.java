/**
 * Internal: the Docker engine as the test lifecycle sees it: whether it answers before the run, its heartbeat
 * during a test, the HTTP clients and the agent session kept for it. Knows nothing of tests or budgets. Not part of
 * the public API; may change without notice.
 */
package io.vitals.internal.junit.engine;
