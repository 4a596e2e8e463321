package io.vitals.examples;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ContainerFaultError;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.junit.jupiter.Container;

/**
 * The same model with a batch that cannot fit: {@code --batch-size 16384 --width 16384} needs several GiB for its
 * activations and gradients, and the container has 512 MiB. The kernel's OOM killer ends the training process
 * (exit 137) about two seconds into the test (most of it loading TensorFlow); the container itself keeps running, because only the exec'd process died.
 *
 * <p>Two ways to live with that in a suite. {@link Fixture} is the test as someone would first write it: it just
 * trains, and Vitals fails it with a {@link ContainerFaultError} explaining the kill (moment, limit, peak, the last
 * samples and the tail of the container's log), even though the test itself never looked at the exit code. The
 * suite runs that fixture through its own engine and asserts the explanation, so the build stays green. The second
 * test declares the kill expected with {@code @ResourceBudget(allowOomKill = true)} and asserts it happened.
 */
@MeasureResources
class BatchTooLargeOomIT {

    static final String[] OVERSIZED_BATCH = {"--epochs", "1", "--batch-size", "16384", "--width", "16384",
        "--preprocess-cost", "0"};

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("512MiB").withCpuLimit(2.0);

    @Test
    void anUnexpectedOomKillFailsTheTestWithAnExplanation() {
        EngineExecutionResults results = ExampleSupport.runFixture(Fixture.class);

        List<Throwable> failures = ExampleSupport.failures(results);
        assertThat(failures).hasSize(1);
        Throwable failure = failures.get(0);
        ExampleSupport.printExpected("OOM explanation", failure);
        assertThat(failure).isInstanceOf(ContainerFaultError.class);
        assertThat(failure.getMessage())
                .matches("(?s)container 'tf' was OOM-killed at [0-9.]+ (ms|s): limit 512\\.0 MiB, peak .*")
                .contains("1 process killed", "the container itself kept running", "Last samples:",
                        " lines of the container's log:", "| starting training: batch 16384, width 16384");
    }

    @Test
    @ResourceBudget(allowOomKill = true)
    void anExpectedOomKillIsAllowedAndCounted(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.trainAllowingFailure(OVERSIZED_BATCH);

        ResourceUsage usage = monitor.usage();
        ExampleSupport.printUsage("oversized-batch", usage);
        System.out.println("oversized-batch: training exit code " + result.exitCode() + ", peak seen at "
                + ExampleSupport.seconds(usage.peak().at()) + ", memory limit hits " + usage.memoryLimitHits());

        assertThat(result.exitCode()).as("exit code (137 = SIGKILL)").isEqualTo(137);
        assertThat(result.epochs()).as("epochs finished").isEmpty();
        assertThat(usage).wasOomKilled();
        assertThat(usage.oomKills()).isEqualTo(1);
    }

    /** The naive test: trains with the oversized batch and ignores the exit code. Run only through the kit. */
    @MeasureResources
    static class Fixture {

        @Container
        static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("512MiB")
                .withCpuLimit(2.0);

        @Test
        void trainsWithAnOversizedBatch() throws Exception {
            // what a job logs at start; it shows up in the log tail of the failure message
            tf.execInContainer("sh", "-c", "echo 'starting training: batch 16384, width 16384' > /proc/1/fd/1");
            tf.trainAllowingFailure(OVERSIZED_BATCH); // exit code ignored, as careless test code would
        }
    }
}
