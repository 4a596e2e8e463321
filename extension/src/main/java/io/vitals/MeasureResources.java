package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Measures the resources of the containers of a test class while each test runs, checks {@link ResourceBudget}s
 * and writes reports.
 *
 * <p>It brings Testcontainers' own lifecycle with it: {@code @Container} fields are started and stopped exactly as
 * under {@code @Testcontainers} (static fields once per class, instance fields once per test), and having both
 * annotations is harmless. Every {@code @Container} field is watched, and so is every field marked
 * {@link Measured} (for containers started some other way). Measuring starts after a container has started and
 * before the test method runs, and ends after the test method returns, before the container stops.
 *
 * <pre>{@code
 * @MeasureResources
 * class TrainingBudgetTest {
 *     @Container
 *     static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);
 *
 *     @Test
 *     @ResourceBudget(peakMemory = "1.5GiB", cpuTime = "60s")
 *     void oneEpochFitsTheBudget() throws Exception {
 *         tf.train("--epochs", "1");
 *     }
 * }
 * }</pre>
 *
 * <p>Under JUnit's parallel execution, the tests that share a watched container (a static field, an instance field
 * under {@code PER_CLASS}, a container of a superclass or shared across classes) run one at a time, each window
 * holding one test's load, while tests on other containers run concurrently: their classes take a JUnit resource
 * lock on the container. {@link SharedLoad} lets them run together instead.
 *
 * <p>Every attribute may also be set for a whole run through a JUnit configuration parameter or a system property
 * (the key constants below); a value on the annotation wins over the run-wide one.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
// Our extension is registered before Testcontainers' so that a missing engine is reported by us, clearly, before
// Testcontainers tries to start anything; measuring itself happens around the test method, after every container
// has been started.
@ExtendWith(ResourceMeasurement.class)
@Testcontainers
// Under JUnit's parallel execution, the tests that share a watched container run one at a time (see SharedLoad):
// JUnit asks ContainerLocks (through ResourceMeasurementLocks) for each test class's locks before anything runs and
// schedules with them.
@ResourceLock(providers = ResourceMeasurementLocks.class)
public @interface MeasureResources {

    // The keys of every run-wide setting live here, and only here: internal code refers to these constants, and
    // SettingKeysTests fails on a literal of a key anywhere else. docs/configuration.md lists them with their
    // defaults, and a test keeps it in step.

    /** Key of the run-wide sampling interval: {@value}. Default {@code 50ms}; at least {@code 1ms}. */
    String SAMPLING_INTERVAL_KEY = "vitals.samplingInterval";

    /**
     * Key of the run-wide probe choice ({@code auto}, {@code host_cgroup}, {@code engine_api}, {@code agent}):
     * {@value}.
     */
    String PROBE_KEY = "vitals.probe";

    /**
     * Key of the image the Vitals agent container runs (docs/agent.md): {@value}. Default
     * {@code vitals/agent:latest}; any image with a {@code java} 17+ on its {@code PATH}.
     */
    String AGENT_IMAGE_KEY = "vitals.agent.image";

    /**
     * Key of whether the Vitals agent may reset the kernel's memory high-water marks (docs/agent.md): {@value}.
     * Default {@code false}: the host's {@code /sys/fs/cgroup} is mounted read-only into the agent, as cAdvisor
     * mounts it, and the peak of a container shared by tests is sampled. {@code true} mounts it writable, so that
     * each test's peak is the kernel's own mark wherever the kernel resets it (cgroup v1; v2 from Linux 6.12).
     */
    String AGENT_RESET_PEAKS_KEY = "vitals.agent.resetPeaks";

    /** Key of the report directory: {@value}. Default {@code target/vitals}. */
    String REPORT_DIR_KEY = "vitals.reportDir";

    /**
     * Key that decides what happens without a reachable Docker engine: {@value}. {@code true} (the default) fails
     * the class with the reason, as Testcontainers itself does, so that a broken engine can never pass as a green
     * build with no test run; {@code false} is the explicit opt-in to skip the class instead, as Testcontainers'
     * {@code disabledWithoutDocker} does, with the reason as the skip reason and on standard error. A
     * {@code DOCKER_HOST} naming an engine that does not answer fails whatever this key says.
     */
    String REQUIRE_DOCKER_KEY = "vitals.requireDocker";

    /**
     * Key that decides what a budget on a figure this host cannot measure does: {@value}. {@code false} (the
     * default) passes it marked "not measurable here", with the reason, in the console table, the reports and the
     * JSON; {@code true} fails the test with that reason. Today this concerns {@code blockRead} and
     * {@code blockWrite} on cgroup v1 hosts and through the Engine API.
     */
    String STRICT_KEY = "vitals.strict";

    /**
     * Key that says where GPU figures come from: {@value}. {@code auto} (the default) reads them from NVML where
     * {@link #GPU_NVML_KEY its library} loads, else from {@link #GPU_NVIDIA_SMI_KEY nvidia-smi} where it runs, and
     * reports "no GPU visible" elsewhere; {@code nvml} and {@code nvidia_smi} use that one only; {@code off} never
     * looks.
     */
    String GPU_KEY = "vitals.gpu";

    /** Key of the NVML library GPU figures come from: {@value}. Default {@code libnvidia-ml.so.1}, as the driver installs it. */
    String GPU_NVML_KEY = "vitals.gpu.nvml";

    /** Key of the {@code nvidia-smi} binary GPU figures come from: {@value}. Default {@code nvidia-smi} on the PATH. */
    String GPU_NVIDIA_SMI_KEY = "vitals.gpu.nvidiaSmi";

    /** Key of the memory warning threshold, a share of the limit: {@value}. Default {@code 90%}; at most 100%. */
    String MEMORY_WARNING_KEY = "vitals.memoryWarning";

    /**
     * Key of what is printed to the console after each test class: {@value}. {@code table} (the default: the
     * verdict first, test, outcome and budgets, in 120 columns), {@code full} (every figure, as {@code docker stats}
     * lays them out), {@code json} (a line per test) or {@code off}.
     */
    String CONSOLE_KEY = "vitals.console";

    /**
     * Key of whether each test's JSON report is also attached to the test as a JUnit file entry
     * ({@code ExtensionContext.publishFile}), for launchers that record them, such as the JUnit Platform's Open
     * Test Reporting XML: {@value}. {@code true} or {@code false}; by default, the value of
     * {@code junit.platform.reporting.open.xml.enabled}. Attaching makes each test wait until its JSON is written
     * (about a millisecond); otherwise it is written on Vitals' report thread.
     */
    String PUBLISH_JSON_KEY = "vitals.publishJson";

    /**
     * Key of which tests get their own series in {@code vitals.prom}: {@value}. {@code breached} (the default): one
     * series per test class and container, plus every series of each test that failed, breached a budget or
     * regressed; {@code class}: the per-class series alone; {@code test}: every series of every test.
     */
    String PROMETHEUS_SERIES_KEY = "vitals.prometheus.series";

    /** Key of the baseline file each test is compared with: {@value}. No comparison without it. */
    String BASELINE_KEY = "vitals.baseline";

    /**
     * Key that appends this run to the baseline when the run ends: {@value}. Default {@code false}; with
     * {@code true} a regression never fails.
     */
    String BASELINE_UPDATE_KEY = "vitals.baseline.update";

    /**
     * Key of what a regression against the baseline does: {@value}. {@code fail} (the default) fails the test,
     * {@code warn} only reports it.
     */
    String BASELINE_MODE_KEY = "vitals.baseline.mode";

    /**
     * Key of how many runs the baseline keeps per test, the median of which is compared: {@value}. Default
     * {@code 1}.
     */
    String BASELINE_RUNS_KEY = "vitals.baseline.runs";

    /**
     * Key of how far every metric may move from its baseline (with a run history: the minimum effect): {@value}.
     * A percentage, default {@code 10%}, or {@code off}. {@link #TOLERANCE_KEY_PREFIX} sets it per metric.
     */
    String TOLERANCE_KEY = "vitals.tolerance";

    /**
     * Prefix of the per-metric tolerance keys, followed by the metric's key, e.g.
     * {@code vitals.tolerance.peakMemory}: {@value}. Falls back to {@link #TOLERANCE_KEY}, except for
     * {@code wallTime}, which is compared only when its own key is set.
     */
    String TOLERANCE_KEY_PREFIX = TOLERANCE_KEY + ".";

    /**
     * Key of the run history file (JSON Lines): {@value}. With it set, the history replaces the baseline
     * comparison.
     */
    String HISTORY_KEY = "vitals.history";

    /**
     * Key that adds this run to the history file when the run ends: {@value}. Default {@code false}; with
     * {@code true} a regression only warns.
     */
    String HISTORY_UPDATE_KEY = "vitals.history.update";

    /**
     * Key of how many builds the history keeps per test, container, phase, metric and testbed: {@value}. Default
     * {@code 20}, at least {@code 2}.
     */
    String HISTORY_RUNS_KEY = "vitals.history.runs";

    /**
     * Key of the significance level of the comparison with the history: {@value}. Default {@code 0.05}, between
     * 0 and 0.5.
     */
    String STATS_ALPHA_KEY = "vitals.stats.alpha";

    /**
     * Key of this run's id in the history: {@value}. Every shard of one CI run should share it, so that merging
     * joins them. Default: made from the start time, e.g. {@code 20260301T101530Z}.
     */
    String RUN_ID_KEY = "vitals.runId";

    /**
     * Key of this build's testbed name in the history: {@value}. Default: none, and the testbed is told apart by
     * what it records (CPUs, CPU model, memory, kernel, cgroup version, engine, probe, container limits). Name it
     * when you know better, e.g. {@code ci-large}: builds are judged against earlier builds of the same testbed.
     */
    String TESTBED_KEY = "vitals.testbed";

    /**
     * Key of the testbed facts that do not tell testbeds apart: {@value}, a comma-separated list of
     * {@code cpuModel}, {@code cpus}, {@code memory}, {@code kernel}, {@code cgroup}, {@code engine}, {@code probe},
     * {@code limits}. Default: none. They are still recorded.
     */
    String TESTBED_IGNORE_KEY = "vitals.testbed.ignore";

    /**
     * Key of the commit this build ran, recorded in the history: {@value}. Default: the CI's variable
     * ({@code GITHUB_SHA}, {@code CI_COMMIT_SHA}, {@code GIT_COMMIT}, {@code BUILDKITE_COMMIT}), else none.
     */
    String COMMIT_KEY = "vitals.commit";

    /**
     * Key of the branch this build ran, recorded in the history: {@value}. Default: the CI's variable
     * ({@code GITHUB_HEAD_REF} or {@code GITHUB_REF_NAME}, {@code CI_COMMIT_REF_NAME}, {@code GIT_BRANCH},
     * {@code BUILDKITE_BRANCH}), else none.
     */
    String BRANCH_KEY = "vitals.branch";

    /**
     * Key that marks the tests of this run as a fixture another test runs on purpose and expects to fail: {@value},
     * set to that test's name (e.g. {@code BatchTooLargeOomIT.anUnexpectedOomKillFailsTheTestWithAnExplanation}).
     * For a suite that runs a failing fixture through {@code EngineTestKit} in the suite's own report directory:
     * the fixture's results join the suite's report, each marked "expected to fail, by its suite" and counted apart
     * from the run's failures. Unset by default.
     */
    String EXPECTED_TO_FAIL_BY_KEY = "vitals.report.expectedToFailBy";

    /**
     * {@return how often each container is sampled, e.g. {@code "50ms"} or {@code "1s"}} Default {@code 50ms}. The
     * Engine API probe cannot go below one second and uses one second then.
     */
    String samplingInterval() default "";

    /** {@return which probe reads the figures} Default {@link ProbeMode#AUTO}. */
    ProbeMode probe() default ProbeMode.AUTO;

    /** {@return where reports are written, relative to the working directory} Default {@code target/vitals}. */
    String reportDir() default "";

    /**
     * {@return the share of a container's memory limit at which a warning is logged, once per test, with the time it
     * was crossed} Default {@code 90%}.
     */
    String memoryWarning() default "";
}
