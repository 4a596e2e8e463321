package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A resource budget for a test: the test fails when a watched container uses more than this.
 *
 * <p>The annotation brings the measuring extension with it: on a class with {@code @Testcontainers} and no
 * {@link MeasureResources}, its {@code @Container} fields are still watched and the budget judged (settings then
 * come from configuration parameters only).
 *
 * <p>On a class, it applies to every test of the class; on a method, its attributes override the class's one by
 * one. Attributes left empty set no budget; the flags {@link #allowOomKill()} and {@link #failFast()} are on when
 * any budget that applies to the container turns them on. When several containers are watched, {@link #container()} names the
 * one a budget applies to (by field name); repeat the annotation for several containers.
 *
 * <p>Values follow one grammar: sizes {@code 512MiB}, {@code 1.5GiB}, {@code 200MB}, {@code 2g}, every unit binary
 * as in {@code docker run --memory} ({@code 200MB} = {@code 200MiB}); durations {@code 250ms}, {@code 60s}, {@code 1m30s}, {@code 2h}, {@code PT1M}; percentages
 * {@code 20%}; rates {@code 10MiB/min}; energy {@code 12kJ}, {@code 1.5Wh}. All are checked before any container starts; a bad value fails the class
 * with an {@link org.junit.jupiter.api.extension.ExtensionConfigurationException} naming the attribute.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Repeatable(ResourceBudget.List.class)
// A budget must be judged wherever it is written: with @Testcontainers alone (no @MeasureResources) it registers the
// extension itself, as JUnit's and junit-pioneer's composed annotations do. JUnit registers an extension class once
// per scope, so having @MeasureResources as well is harmless.
@ExtendWith(ResourceMeasurement.class)
public @interface ResourceBudget {

    /** {@return the container (field name) the budget applies to; may be left empty when only one is watched} */
    String container() default "";

    /**
     * {@return the phase (started with {@link ResourceMonitor#mark(String)}) the budget applies to; empty for the whole
     * test} A test that never marks the phase fails, since its budget could not be checked.
     */
    String phase() default "";

    /** {@return highest MEM USAGE allowed, e.g. {@code "1.5GiB"}} */
    String peakMemory() default "";

    /** {@return share of the memory limit that must stay free at the peak, e.g. {@code "20%"} (at most 100 %)} */
    String memoryHeadroom() default "";

    /** {@return CPU time allowed over the test, e.g. {@code "60s"}} */
    String cpuTime() default "";

    /** {@return average CPU allowed, 100 % being one core: {@code "150%"} is one and a half cores} */
    String averageCpu() default "";

    /** {@return highest number of tasks (processes and threads) allowed, e.g. {@code "64"}} */
    String peakPids() default "";

    /** {@return bytes read from block devices allowed, e.g. {@code "200MiB"}} */
    String blockRead() default "";

    /** {@return bytes written to block devices allowed} */
    String blockWrite() default "";

    /** {@return bytes received over the network allowed} */
    String networkReceived() default "";

    /** {@return bytes sent over the network allowed} */
    String networkSent() default "";

    /**
     * {@return the leak budget: the highest trend of memory over the test, e.g. {@code "10MiB/min"}, fitted robustly
     * (Theil–Sen) over the timeline, so a single spike does not count as growth}
     */
    String memoryGrowth() default "";

    /** {@return time allowed to be throttled by the CPU limit, e.g. {@code "2s"}} */
    String throttledTime() default "";

    /**
     * {@return GPU memory the container's processes may hold at most, e.g. {@code "4GiB"} (sampled every second or
     * slower from nvidia-smi; see docs/gpu.md)} Where no GPU is visible the budget is "not measurable here".
     */
    String peakGpuMemory() default "";

    /**
     * {@return average utilisation of the GPUs the container used, e.g. {@code "80%"}: device-wide, so it counts other
     * processes' work where they share the GPU}
     */
    String averageGpuUtilization() default "";

    /**
     * {@return the container's own processes' average share of the SMs of its GPUs, e.g. {@code "50%"}: unlike {@link
     * #averageGpuUtilization()}, other processes on a shared GPU do not count} From NVML's per-process samples; "not
     * measurable here" where the driver keeps none (nvidia-smi, MIG).
     */
    String averageGpuSmUtilization() default "";

    /**
     * {@return energy of the GPUs the container used, e.g. {@code "12kJ"} or {@code "1.5Wh"}; integrated from power
     * draw}
     */
    String gpuEnergy() default "";

    /**
     * {@return major page faults allowed, e.g. {@code "1000"}: pages the kernel had to read from disk, from
     * memory.stat's {@code pgmajfault}} A job that memory-maps its dataset pays them on every cold read; one thrashing
     * at its memory limit pays them on pages it had to give back. Exact on every host probe (a counter).
     */
    String majorPageFaults() default "";

    /** {@return whether an OOM kill in the container is allowed; by default any OOM kill fails the test} */
    boolean allowOomKill() default false;

    /**
     * Ends the test as soon as a sample shows {@link #peakMemory()} or {@link #peakPids()} exceeded, instead of
     * letting it run on: the test thread is interrupted (a blocking {@code train(...)} call returns with an
     * {@code InterruptedException}) and the test fails with the breach. Processes the test started inside a
     * container shared by the class keep running until they end or the container stops.
     *
     * @return {@code true} to end the test at the first sample over one of those budgets
     */
    boolean failFast() default false;

    /** Repeats {@link ResourceBudget} for several containers. */
    @API(status = EXPERIMENTAL, since = "0.1")
    @Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @Inherited
    @ExtendWith(ResourceMeasurement.class) // JUnit looks for @ExtendWith on the container, not its contents
    @interface List {
        /**
         * The repeated budgets; the compiler writes this for several {@code @ResourceBudget} on one element.
         *
         * @return the budgets, in the order written
         */
        ResourceBudget[] value();
    }
}
