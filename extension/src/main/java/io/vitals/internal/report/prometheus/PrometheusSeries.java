package io.vitals.internal.report.prometheus;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Which tests get their own series in {@code vitals.prom}. Per-test labels make a series per test and figure,
 * which Prometheus advises against for anything that grows without bound; per class, the series of a suite stay
 * the same from run to run, and the tests a reader must look at are still named.
 */
@API(status = INTERNAL, since = "0.1")
public enum PrometheusSeries {
    /** One series per class (and container): counts, summed counters, the worst test's gauges. */
    CLASS,
    /** The per-class series, and every series of each test that failed, breached a budget or regressed. */
    BREACHED,
    /** Every series of every test, no per-class series. */
    TEST
}
