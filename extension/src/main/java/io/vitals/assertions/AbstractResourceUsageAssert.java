package io.vitals.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.assertj.core.error.ShouldNotBeNull.shouldNotBeNull;

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.Energy;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.units.Preconditions;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on what one container used during a test or a phase. Each check judges its figure exactly as the
 * matching {@code @ResourceBudget} attribute does, and a failure carries the same context as a budget breach.
 *
 * <p>Budgets are given either as values ({@link DataSize}, {@link Duration}, {@link Percentage}, {@link DataRate})
 * or as strings in the library's grammar: sizes {@code "512MiB"}, {@code "1.5GiB"}, {@code "100MB"}; durations
 * {@code "250ms"}, {@code "1m30s"}, {@code "PT1M"}; percentages {@code "20%"} (100% is one core); rates
 * {@code "10MiB/min"}. A malformed string throws an {@link IllegalArgumentException} stating the grammar.
 *
 * <p>Failure messages start with the description, by default the container ({@code [container 'tf']}); {@link
 * #as(String, Object...)} replaces it, and {@link #overridingErrorMessage(String, Object...)} replaces the message.
 * A failed budget check is an {@code org.opentest4j.AssertionFailedError} (where opentest4j is on the class path)
 * whose actual and expected values are the figure and the budget as printed, so that IDEs show them side by side.
 * Like AssertJ's own assertions, a failure's stack trace starts at the caller, unless {@code
 * Assertions.setRemoveAssertJRelatedElementsFromStackTrace(false)} asks for the whole trace.
 *
 * @param <SELF> the concrete assertion type
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class AbstractResourceUsageAssert<SELF extends AbstractResourceUsageAssert<SELF>>
        extends AbstractAssert<SELF, ResourceUsage> {

    /** Makes the assertion on a phase; soft assertions replace it so that phase checks are collected too. */
    Function<ResourceUsage, ResourceUsageAssert> nested = ResourceUsageAssert::new;

    /** Whether checks on a figure this host cannot measure are skipped ({@link #whereMeasurable()}) or fail. */
    boolean skipUnmeasurable;

    /**
     * For subclasses, as AssertJ's assertions are built.
     *
     * @param actual the usage to check
     * @param selfType the concrete assertion class, as AssertJ's {@code AbstractAssert} takes it
     */
    protected AbstractResourceUsageAssert(ResourceUsage actual, Class<?> selfType) {
        super(actual, selfType);
        if (actual != null) {
            info.description("container '" + actual.container() + "'");
        }
    }

    /**
     * Skips the checks that follow on a figure this host cannot measure, instead of failing them. Without it, such
     * a check fails, since its figure (cgroup v1's 0 B of block writes for a container that wrote 64 MiB) would
     * make it pass or fail by accident; with it, a test written for cgroup v2 hosts also runs on v1 ones and checks
     * there what can be checked. Which figures a host can measure: docs/metrics.md, "Exactness by host".
     *
     * <pre>{@code assertThat(usage).whereMeasurable().hasBlockWriteAtMost("64MiB");}</pre>
     *
     * @return this assertion, for chaining further checks
     */
    public SELF whereMeasurable() {
        skipUnmeasurable = true;
        return myself;
    }

    /**
     * Verifies that the peak MEM USAGE is at most {@code budget}, e.g. {@code "1.5GiB"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakMemoryAtMost(String budget) {
        return atMost(Limit.parse(Metric.PEAK_MEMORY, budget));
    }

    /**
     * Verifies that the peak MEM USAGE is at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakMemoryAtMost(DataSize budget) {
        return atMost(Limit.of(Metric.PEAK_MEMORY, budget));
    }

    /**
     * Verifies that the peak MEM USAGE reached at least {@code floor}, e.g. {@code "256MiB"} (ground truth).
     *
     * @param floor the least expected, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakMemoryAtLeast(String floor) {
        return atLeast(Limit.parse(Metric.PEAK_MEMORY, floor));
    }

    /**
     * Verifies that the peak MEM USAGE reached at least {@code floor}.
     *
     * @param floor the least expected
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakMemoryAtLeast(DataSize floor) {
        return atLeast(Limit.of(Metric.PEAK_MEMORY, floor));
    }

    /**
     * Verifies that at least {@code floor} of the memory limit stayed free at the peak, e.g. {@code "20%"}.
     *
     * @param floor the least expected, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasMemoryHeadroomAtLeast(String floor) {
        return atLeast(Limit.parse(Metric.MEMORY_HEADROOM, floor));
    }

    /**
     * Verifies that at least {@code floor} of the memory limit stayed free at the peak.
     *
     * @param floor the least expected
     * @return this assertion, for chaining further checks
     */
    public SELF hasMemoryHeadroomAtLeast(Percentage floor) {
        Preconditions.notNull(floor, "floor");
        Preconditions.check(floor.value() <= 100.0, "Invalid headroom '%s': a share of the memory limit cannot exceed"
                + " 100%%", floor);
        return atLeast(new Limit(Metric.MEMORY_HEADROOM, floor.toString(), floor.value()));
    }

    /**
     * Verifies that the CPU time used is at most {@code budget}, e.g. {@code "60s"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasCpuTimeAtMost(String budget) {
        return atMost(Limit.parse(Metric.CPU_TIME, budget));
    }

    /**
     * Verifies that the CPU time used is at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasCpuTimeAtMost(Duration budget) {
        return atMost(Limit.of(Metric.CPU_TIME, budget));
    }

    /**
     * Verifies that the CPU time used is at least {@code floor}, e.g. {@code "5s"}.
     *
     * @param floor the least expected, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasCpuTimeAtLeast(String floor) {
        return atLeast(Limit.parse(Metric.CPU_TIME, floor));
    }

    /**
     * Verifies that the CPU time used is at least {@code floor}.
     *
     * @param floor the least expected
     * @return this assertion, for chaining further checks
     */
    public SELF hasCpuTimeAtLeast(Duration floor) {
        return atLeast(Limit.of(Metric.CPU_TIME, floor));
    }

    /**
     * Verifies that CPU time over wall time is at most {@code budget}, e.g. {@code "150%"} (100% is one core).
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageCpuAtMost(String budget) {
        return atMost(Limit.parse(Metric.AVERAGE_CPU, budget));
    }

    /**
     * Verifies that CPU time over wall time is at most {@code budget} (100% is one core).
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageCpuAtMost(Percentage budget) {
        return atMost(Limit.of(Metric.AVERAGE_CPU, budget));
    }

    /**
     * Verifies that CPU time over wall time is at least {@code floor}, e.g. {@code "80%"} (100% is one core).
     *
     * @param floor the least expected, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageCpuAtLeast(String floor) {
        return atLeast(Limit.parse(Metric.AVERAGE_CPU, floor));
    }

    /**
     * Verifies that CPU time over wall time is at least {@code floor} (100% is one core).
     *
     * @param floor the least expected
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageCpuAtLeast(Percentage floor) {
        return atLeast(Limit.of(Metric.AVERAGE_CPU, floor));
    }

    /**
     * Verifies that the highest number of tasks seen is at most {@code budget}.
     *
     * @throws IllegalArgumentException if {@code budget} is negative
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakPidsAtMost(long budget) {
        Preconditions.check(budget >= 0, "peak PIDs budget must not be negative: %d", budget);
        return atMost(new Limit(Metric.PEAK_PIDS, Long.toString(budget), budget));
    }

    /**
     * Verifies that the major page faults (pages read from disk, memory.stat {@code pgmajfault}) are at most
     * {@code budget}; "not measurable here" where the host cannot read them.
     *
     * @throws IllegalArgumentException if {@code budget} is negative
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasMajorPageFaultsAtMost(long budget) {
        Preconditions.check(budget >= 0, "major page faults budget must not be negative: %d", budget);
        return atMost(new Limit(Metric.MAJOR_PAGE_FAULTS, Long.toString(budget), budget));
    }

    /**
     * Verifies that the bytes read from block devices are at most {@code budget}, e.g. {@code "100MB"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasBlockReadAtMost(String budget) {
        return atMost(Limit.parse(Metric.BLOCK_READ, budget));
    }

    /**
     * Verifies that the bytes read from block devices are at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasBlockReadAtMost(DataSize budget) {
        return atMost(Limit.of(Metric.BLOCK_READ, budget));
    }

    /**
     * Verifies that the bytes written to block devices are at most {@code budget}, e.g. {@code "100MB"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasBlockWriteAtMost(String budget) {
        return atMost(Limit.parse(Metric.BLOCK_WRITE, budget));
    }

    /**
     * Verifies that the bytes written to block devices are at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasBlockWriteAtMost(DataSize budget) {
        return atMost(Limit.of(Metric.BLOCK_WRITE, budget));
    }

    /**
     * Verifies that the bytes received over the network are at most {@code budget}, e.g. {@code "10MB"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasNetworkReceivedAtMost(String budget) {
        return atMost(Limit.parse(Metric.NETWORK_RECEIVED, budget));
    }

    /**
     * Verifies that the bytes received over the network are at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasNetworkReceivedAtMost(DataSize budget) {
        return atMost(Limit.of(Metric.NETWORK_RECEIVED, budget));
    }

    /**
     * Verifies that the bytes sent over the network are at most {@code budget}, e.g. {@code "10MB"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasNetworkSentAtMost(String budget) {
        return atMost(Limit.parse(Metric.NETWORK_SENT, budget));
    }

    /**
     * Verifies that the bytes sent over the network are at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasNetworkSentAtMost(DataSize budget) {
        return atMost(Limit.of(Metric.NETWORK_SENT, budget));
    }

    /**
     * Verifies that memory grew by at most {@code budget} (Theil–Sen slope), e.g. {@code "10MiB/min"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasMemoryGrowthAtMost(String budget) {
        return atMost(Limit.parse(Metric.MEMORY_GROWTH, budget));
    }

    /**
     * Verifies that memory grew by at most {@code budget} (Theil–Sen slope).
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasMemoryGrowthAtMost(DataRate budget) {
        Preconditions.notNull(budget, "budget");
        return atMost(new Limit(Metric.MEMORY_GROWTH, budget.toString(), budget.bytesPerSecond()));
    }

    /**
     * Verifies that the CPU limit throttled the container for at most {@code budget}, e.g. {@code "500ms"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasThrottledTimeAtMost(String budget) {
        return atMost(Limit.parse(Metric.THROTTLED_TIME, budget));
    }

    /**
     * Verifies that the CPU limit throttled the container for at most {@code budget}.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasThrottledTimeAtMost(Duration budget) {
        return atMost(Limit.of(Metric.THROTTLED_TIME, budget));
    }

    /**
     * Verifies that the container's processes held at most {@code budget} of GPU memory, e.g. {@code "4GiB"}.
     * Fails, with the reason, where no GPU was seen, unless {@link #whereMeasurable()}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakGpuMemoryAtMost(String budget) {
        return atMost(Limit.parse(Metric.PEAK_GPU_MEMORY, budget));
    }

    /**
     * Verifies that the container's processes held at most {@code budget} of GPU memory.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasPeakGpuMemoryAtMost(DataSize budget) {
        return atMost(Limit.of(Metric.PEAK_GPU_MEMORY, budget));
    }

    /**
     * Verifies that the GPUs the container used were busy at most {@code budget} on average, e.g. {@code "80%"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageGpuUtilizationAtMost(String budget) {
        return atMost(Limit.parse(Metric.AVERAGE_GPU_UTILIZATION, budget));
    }

    /**
     * Verifies that the GPUs the container used were busy at most {@code budget} on average.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageGpuUtilizationAtMost(Percentage budget) {
        return atMost(Limit.of(Metric.AVERAGE_GPU_UTILIZATION, budget));
    }

    /**
     * Verifies that the container's own processes used at most {@code budget} of the SMs of its GPUs on average,
     * e.g. {@code "50%"}: the container's share, where {@link #hasAverageGpuUtilizationAtMost} is the device's.
     * Known only from NVML's per-process samples; fails, with the reason, where there are none.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageGpuSmUtilizationAtMost(String budget) {
        return atMost(Limit.parse(Metric.AVERAGE_GPU_SM_UTILIZATION, budget));
    }

    /**
     * Verifies that the container's own processes used at most {@code budget} of the SMs of its GPUs on average.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasAverageGpuSmUtilizationAtMost(Percentage budget) {
        return atMost(Limit.of(Metric.AVERAGE_GPU_SM_UTILIZATION, budget));
    }

    /**
     * Verifies that the GPUs the container used drew at most {@code budget} of energy, e.g. {@code "12kJ"}.
     *
     * @param budget the most allowed, as text in the figure's unit as {@code @ResourceBudget} takes it
     * @return this assertion, for chaining further checks
     */
    public SELF hasGpuEnergyAtMost(String budget) {
        return atMost(Limit.parse(Metric.GPU_ENERGY, budget));
    }

    /**
     * Verifies that the GPUs the container used drew at most {@code budget} of energy.
     *
     * @param budget the most allowed
     * @return this assertion, for chaining further checks
     */
    public SELF hasGpuEnergyAtMost(Energy budget) {
        Preconditions.notNull(budget, "budget");
        return atMost(new Limit(Metric.GPU_ENERGY, budget.toString(), budget.toJoules()));
    }

    /**
     * Verifies that the kernel's OOM killer killed no process in the container.
     *
     * @return this assertion, for chaining further checks
     */
    public SELF wasNotOomKilled() {
        requireActual();
        if (actual.oomKills() > 0) {
            throwAssertionError(ShouldBeOomKilled.shouldNotBeOomKilled(actual));
        }
        return myself;
    }

    /**
     * Verifies that the kernel's OOM killer killed at least one process in the container.
     *
     * @return this assertion, for chaining further checks
     */
    public SELF wasOomKilled() {
        requireActual();
        if (actual.oomKills() == 0) {
            throwAssertionError(ShouldBeOomKilled.shouldBeOomKilled(actual));
        }
        return myself;
    }

    /**
     * Verifies that the test marked a phase named {@code name} and returns an assertion on that phase's usage,
     * described as the current one plus {@code phase 'name'}, with the current overriding error message if any.
     *
     * @param name the phase's name, as given to {@link io.vitals.ResourceMonitor#mark(String)}
     * @return an assertion on that phase's usage
     */
    public ResourceUsageAssert phase(String name) {
        Preconditions.notNull(name, "name");
        requireActual();
        Optional<ResourceUsage.Phase> phase = actual.phase(name);
        // not orElseThrow(supplier): the error would be made inside Optional, whose frame AssertJ's stack-trace
        // filter keeps, so the trace would start there rather than at the caller
        if (phase.isEmpty()) {
            throw assertionError(ShouldHavePhase.shouldHavePhase(name,
                    actual.phases().stream().map(ResourceUsage.Phase::name).toList()));
        }
        ResourceUsageAssert assertion = nested.apply(phase.get().usage());
        assertion.nested = nested;
        assertion.skipUnmeasurable = skipUnmeasurable;
        // carried over as AssertJ's own navigation (extracting, asString) carries them
        assertion.info.description(info.descriptionText() + ", phase '" + name + "'");
        assertion.info.useRepresentation(info.representation());
        String overridingMessage = info.overridingErrorMessage();
        if (overridingMessage != null) {
            assertion.info.overridingErrorMessage(overridingMessage);
        }
        return assertion;
    }

    private SELF atMost(Limit limit) {
        return check(limit, false);
    }

    private SELF atLeast(Limit limit) {
        return check(limit, true);
    }

    private SELF check(Limit limit, boolean atLeast) {
        requireActual();
        Optional<String> unmeasurable = Measurability.reason(limit.metric(), actual);
        if (unmeasurable.isPresent()) {
            if (skipUnmeasurable) {
                return myself;
            }
            throw assertionError(ShouldBeMeasurable.shouldBeMeasurable(limit.metric().label(), limit.text(),
                    unmeasurable.get()));
        }
        BudgetResult result = BudgetEvaluator.evaluate(limit, actual);
        boolean sameDirection = atLeast == limit.metric().isFloor();
        boolean passed = sameDirection ? result.passed()
                : result.actual().isPresent() && result.actual().getAsDouble() >= limit.value();
        if (!passed) {
            ShouldBeWithinBudget breach = ShouldBeWithinBudget.shouldBeWithinBudget(atLeast, result, actual);
            throw failureWithActualExpected(breach.actual(), breach.expected(), ShouldBeWithinBudget.FORMAT,
                    breach.arguments());
        }
        return myself;
    }

    /**
     * Also counts as this assertion's own the helper classes generated for it and named after it: a soft
     * assertion runs each check through a proxy subclass ({@code ResourceUsageAssert$ByteBuddy$…}), which AssertJ
     * drops, and its call helper ({@code ResourceUsageAssert$ByteBuddy$…$AssertJ$SoftProxies$…}), which it would
     * leave at the top of the trace. Final, so that the proxy does not route this through its error collector.
     */
    @Override
    protected final boolean isElementOfCustomAssert(StackTraceElement frame) {
        return super.isElementOfCustomAssert(frame) || frame.getClassName().startsWith(getClass().getName() + "$");
    }

    /**
     * {@link #isNotNull()}'s check, failed through {@link #throwAssertionError}: that drops this class's frames
     * from the trace as well as AssertJ's, where {@code isNotNull()} would leave them in.
     */
    private void requireActual() {
        if (actual == null) {
            throwAssertionError(shouldNotBeNull());
        }
    }
}
