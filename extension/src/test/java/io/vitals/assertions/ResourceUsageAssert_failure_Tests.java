package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static io.vitals.assertions.Usages.usages;
import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * How every kind of failure is raised, whatever the check: with the description given with {@code as}, or the
 * message given with {@code overridingErrorMessage}; with the figure and the budget as actual and expected for
 * IDEs; with a stack trace that starts at the caller unless AssertJ is told to keep it whole; and worded as a
 * {@code @ResourceBudget} breach.
 */
class ResourceUsageAssert_failure_Tests {

    /** The checks the parameterized tests name, by method name, each taking its budget as a string. */
    private static final Map<String, BiConsumer<ResourceUsageAssert, String>> CHECKS = Map.ofEntries(
            Map.entry("hasPeakMemoryAtMost", ResourceUsageAssert::hasPeakMemoryAtMost),
            Map.entry("hasPeakMemoryAtLeast", ResourceUsageAssert::hasPeakMemoryAtLeast),
            Map.entry("hasMemoryHeadroomAtLeast", ResourceUsageAssert::hasMemoryHeadroomAtLeast),
            Map.entry("hasCpuTimeAtMost", ResourceUsageAssert::hasCpuTimeAtMost),
            Map.entry("hasCpuTimeAtLeast", ResourceUsageAssert::hasCpuTimeAtLeast),
            Map.entry("hasAverageCpuAtMost", ResourceUsageAssert::hasAverageCpuAtMost),
            Map.entry("hasAverageCpuAtLeast", ResourceUsageAssert::hasAverageCpuAtLeast),
            Map.entry("hasThrottledTimeAtMost", ResourceUsageAssert::hasThrottledTimeAtMost),
            Map.entry("hasBlockReadAtMost", ResourceUsageAssert::hasBlockReadAtMost),
            Map.entry("hasNetworkSentAtMost", ResourceUsageAssert::hasNetworkSentAtMost),
            Map.entry("hasMemoryGrowthAtMost", ResourceUsageAssert::hasMemoryGrowthAtMost));

    /** One failing check on a usage; its name is the parameterized test's display name. */
    record FailingCheck(String name, ResourceUsage usage, Consumer<ResourceUsageAssert> check) {

        /**
         * Runs the check after {@code before} and returns what it threw. A plain try, not {@code catchThrowable}:
         * AssertJ's stack-trace filter drops JDK frames above any AssertJ frame, and catchThrowable's would hide
         * a JDK frame a real test would see at the top.
         */
        AssertionError failure(Consumer<ResourceUsageAssert> before) {
            ResourceUsageAssert assertion = assertThat(usage);
            before.accept(assertion);
            try {
                check.accept(assertion);
            } catch (AssertionError e) {
                return e;
            }
            throw new IllegalStateException(name + ": the check passed");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<FailingCheck> failingChecks() {
        ResourceUsage killed = usages().oomKills(1).build();
        ResourceUsage noLimit = usages().memoryLimit(Optional.empty()).build();
        return Stream.of(
                new FailingCheck("peak memory over its ceiling", usage(), a -> a.hasPeakMemoryAtMost("1.5GiB")),
                new FailingCheck("peak memory under a floor", usage(), a -> a.hasPeakMemoryAtLeast("2GiB")),
                new FailingCheck("headroom under its floor", usage(), a -> a.hasMemoryHeadroomAtLeast("20%")),
                new FailingCheck("headroom without a memory limit", noLimit, a -> a.hasMemoryHeadroomAtLeast("20%")),
                new FailingCheck("CPU time over its ceiling", usage(), a -> a.hasCpuTimeAtMost("20s")),
                new FailingCheck("an OOM kill", killed, a -> a.wasNotOomKilled()),
                new FailingCheck("no OOM kill", usage(), a -> a.wasOomKilled()),
                new FailingCheck("a phase not marked", usage(), a -> a.phase("warmup")),
                new FailingCheck("a phase over its ceiling", usage(),
                        a -> a.phase("train").hasPeakMemoryAtMost("1GiB")),
                new FailingCheck("no usage", null, a -> a.hasPeakMemoryAtMost("1GiB")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingChecks")
    void should_start_the_message_with_the_description_given_with_as(FailingCheck check) {
        // WHEN
        AssertionError error = check.failure(a -> a.as("nightly %s", "run"));
        // THEN
        Assertions.assertThat(error)
                .hasMessageStartingWith("[nightly run")
                .hasMessageContaining(String.format("] %nExpecting"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingChecks")
    void should_replace_the_message_with_the_overriding_one(FailingCheck check) {
        // WHEN
        AssertionError error = check.failure(a -> a.overridingErrorMessage("over budget in %s", "nightly"));
        // THEN
        Assertions.assertThat(error)
                .hasMessageEndingWith("over budget in nightly")
                .hasMessageNotContaining("Expecting");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingChecks")
    void should_point_the_stack_trace_at_the_caller(FailingCheck check) {
        // WHEN
        AssertionError error = check.failure(a -> { });
        // THEN the first frame is this class's (the check's lambda), and no frame is the assertion's or AssertJ's
        Assertions.assertThat(error.getStackTrace()[0].getClassName()).isEqualTo(getClass().getName());
        Assertions.assertThat(error.getStackTrace()).extracting(StackTraceElement::getClassName)
                .noneMatch(name -> name.startsWith("org.assertj."))
                .doesNotContain(AbstractResourceUsageAssert.class.getName(), ResourceUsageAssert.class.getName());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingChecks")
    void should_keep_the_whole_stack_trace_when_assertj_is_told_to(FailingCheck check) {
        // GIVEN
        Assertions.setRemoveAssertJRelatedElementsFromStackTrace(false);
        try {
            // WHEN
            AssertionError error = check.failure(a -> { });
            // THEN
            Assertions.assertThat(error.getStackTrace()).extracting(StackTraceElement::getClassName)
                    .contains(AbstractResourceUsageAssert.class.getName())
                    .anyMatch(name -> name.startsWith("org.assertj."));
        } finally {
            Assertions.setRemoveAssertJRelatedElementsFromStackTrace(true);
        }
    }

    @ParameterizedTest(name = "{0}: actual {1}, expected {2}")
    @CsvSource(delimiter = '|', textBlock = """
            hasPeakMemoryAtMost      | 1.5GiB   | 1.7 GiB      | 1.5 GiB
            hasPeakMemoryAtLeast     | 2GiB     | 1.7 GiB      | 2.0 GiB
            hasMemoryHeadroomAtLeast | 20%      | 15.0%        | 20.0%
            hasCpuTimeAtMost         | 20s      | 30.0 s       | 20.0 s
            hasAverageCpuAtLeast     | 200%     | 150.0%       | 200.0%
            hasThrottledTimeAtMost   | 100ms    | 120 ms       | 100 ms
            hasBlockReadAtMost       | 1000000B | 2.9 MiB      | 976.6 KiB
            hasMemoryGrowthAtMost    | 5MiB/min | 10.0 MiB/min | 5.0 MiB/min
            """)
    void should_give_ides_the_figure_and_the_budget_as_actual_and_expected(String method, String budget,
            String actual, String expected) {
        // GIVEN
        ResourceUsageAssert assertion = assertThat(usage());
        // WHEN
        AssertionFailedError error = catchThrowableOfType(AssertionFailedError.class,
                () -> check(method).accept(assertion, budget));
        // THEN
        Assertions.assertThat(error.isActualDefined()).isTrue();
        Assertions.assertThat(error.getActual().getValue()).isEqualTo(actual);
        Assertions.assertThat(error.getExpected().getValue()).isEqualTo(expected);
        Assertions.assertThat(error).hasMessageContaining(String.format("%n  %s%n", actual))
                .hasMessageContaining(String.format("%n  %s%n", expected));
    }

    @Test
    void should_give_ides_unknown_as_the_actual_figure_when_it_could_not_be_measured() {
        // GIVEN
        ResourceUsage noLimit = usages().memoryLimit(Optional.empty()).build();
        // WHEN
        AssertionFailedError error = catchThrowableOfType(AssertionFailedError.class,
                () -> assertThat(noLimit).hasMemoryHeadroomAtLeast("20%"));
        // THEN
        Assertions.assertThat(error.getActual().getValue()).isEqualTo("unknown");
        Assertions.assertThat(error.getExpected().getValue()).isEqualTo("20.0%");
    }

    /**
     * The reason after "but it exceeded it" / "but it fell short of it" is what a {@code @ResourceBudget} breach
     * says after "by", so that a budget and an assertion word the same breach alike; the starved usage adds the
     * contention clause for the figures that contention inflates.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            peakMemory      | 1.5GiB    | hasPeakMemoryAtMost      | it exceeded it by
            memoryHeadroom  | 20%       | hasMemoryHeadroomAtLeast | it fell short of it by
            cpuTime         | 20s       | hasCpuTimeAtMost         | it exceeded it by
            averageCpu      | 100%      | hasAverageCpuAtMost      | it exceeded it by
            throttledTime   | 1s        | hasThrottledTimeAtMost   | it exceeded it by
            blockRead       | 1000000B  | hasBlockReadAtMost       | it exceeded it by
            networkSent     | 1000B     | hasNetworkSentAtMost     | it exceeded it by
            memoryGrowth    | 5MiB/min  | hasMemoryGrowthAtMost    | it exceeded it by
            """)
    void should_word_a_breach_as_a_resource_budget_does(String attribute, String budget, String method, String verb) {
        // GIVEN a container throttled a quarter of its 20 s
        ResourceUsage starved = usages().throttled(Duration.ofSeconds(5)).build();
        Metric metric = Metric.byAttribute(attribute).orElseThrow();
        String breach = BudgetEvaluator.describeBreach(BudgetEvaluator.evaluate(Limit.parse(metric, budget), starved),
                starved);
        // WHEN
        Throwable error = catchThrowable(() -> check(method).accept(assertThat(starved), budget));
        // THEN
        String afterBy = breach.substring(breach.indexOf(" by ") + " by ".length());
        Assertions.assertThat(error).hasMessageEndingWith(String.format("%nbut %s %s", verb, afterBy));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({ "hasCpuTimeAtMost, 20s", "hasAverageCpuAtMost, 100%", "hasThrottledTimeAtMost, 1s" })
    void should_say_when_the_container_was_starved_of_cpu(String method, String budget) {
        // GIVEN a container throttled a quarter of its 20 s
        ResourceUsage starved = usages().throttled(Duration.ofSeconds(5)).build();
        // WHEN
        Throwable error = catchThrowable(() -> check(method).accept(assertThat(starved), budget));
        // THEN
        Assertions.assertThat(error)
                .hasMessageContaining("; the container was starved of CPU: it was throttled 25% of its 20.0 s (5.0 s); ")
                .hasMessageEndingWith(" depends on contention as well as on the code, so this breach may be the"
                        + " machine's, not the code's");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({ "hasCpuTimeAtLeast, 1m", "hasAverageCpuAtLeast, 200%" })
    void should_not_blame_contention_for_a_figure_under_its_floor(String method, String budget) {
        // GIVEN a container throttled a quarter of its 20 s
        ResourceUsage starved = usages().throttled(Duration.ofSeconds(5)).build();
        // WHEN
        Throwable error = catchThrowable(() -> check(method).accept(assertThat(starved), budget));
        // THEN the starvation clause speaks of the budget's own direction (ceilings), not of a floor
        Assertions.assertThat(error).hasMessageContaining("it fell short of it by ")
                .hasMessageNotContaining("starved");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({ "hasPeakMemoryAtLeast, 2GiB, (+15.0%)", "hasCpuTimeAtLeast, 1m, (+50.0%)",
            "hasAverageCpuAtLeast, 200%, (+25.0%)", "hasBlockReadAtMost, 1000000B, (+200.0%)" })
    void should_give_a_positive_margin_on_the_breach_side_whatever_the_direction(String method, String budget,
            String margin) {
        // WHEN
        Throwable error = catchThrowable(() -> check(method).accept(assertThat(usage()), budget));
        // THEN
        Assertions.assertThat(error).hasMessageContaining(" " + margin);
    }

    @Test
    void should_carry_the_overriding_message_into_a_phase() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).withFailMessage("too much")
                .phase("train").hasPeakMemoryAtMost(DataSize.ofGiB(1)));
        // THEN
        Assertions.assertThat(error).hasMessage("[container 'tf', phase 'train'] too much");
    }

    private static BiConsumer<ResourceUsageAssert, String> check(String method) {
        BiConsumer<ResourceUsageAssert, String> check = CHECKS.get(method);
        if (check == null) {
            throw new IllegalArgumentException("no check named " + method + " in CHECKS");
        }
        return check;
    }
}
