package io.vitals.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.ResourceUsage;

import java.util.function.Consumer;

import org.apiguardian.api.API;
import org.assertj.core.annotation.CheckReturnValue;
import org.assertj.core.api.AbstractSoftAssertions;
import org.assertj.core.api.SoftAssertionsProvider;

/**
 * Soft assertions on resource usage: every failed check is collected and {@link #assertAll()} reports them
 * together as "Multiple Failures (n failures)".
 *
 * <pre>{@code
 * VitalsSoftAssertions softly = new VitalsSoftAssertions();
 * softly.assertThat(usage).hasPeakMemoryAtMost("1.5GiB");
 * softly.assertThat(usage).hasCpuTimeAtMost("60s");
 * softly.assertAll();
 * }</pre>
 *
 * <p>With JUnit Jupiter, AssertJ's {@code SoftAssertionsExtension} injects and checks it:
 * {@code @ExtendWith(SoftAssertionsExtension.class)} on the class and {@code @InjectSoftAssertions
 * VitalsSoftAssertions softly;} as a field. {@link ResourceUsageAssert#phase(String)} on a soft assertion returns
 * a soft assertion too.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class VitalsSoftAssertions extends AbstractSoftAssertions {

    /** Creates an empty collector; check it with {@link #assertAll()}. */
    public VitalsSoftAssertions() {
        super();
    }

    /**
     * Runs {@code softly} and then {@link #assertAll()}.
     *
     * @param softly the soft assertions to run
     */
    public static void assertSoftly(Consumer<VitalsSoftAssertions> softly) {
        SoftAssertionsProvider.assertSoftly(VitalsSoftAssertions.class, softly);
    }

    /**
     * Starts soft assertions on what a container used during a test or a phase.
     *
     * @param actual the usage of a container
     * @return an assertion whose failures are collected until {@link #assertAll()}
     */
    @CheckReturnValue
    public ResourceUsageAssert assertThat(ResourceUsage actual) {
        ResourceUsageAssert assertion = proxy(ResourceUsageAssert.class, ResourceUsage.class, actual);
        // A field, not a method: calls on the proxy go through the error collector.
        assertion.nested = this::assertThat;
        return assertion;
    }
}
