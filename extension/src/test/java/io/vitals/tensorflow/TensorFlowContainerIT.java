package io.vitals.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;

import static io.vitals.assertions.VitalsAssertions.assertThat;

import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

/** The TensorFlow image through Testcontainers, measured: two epochs under 2 GiB and 2 CPUs, with a budget. */
@MeasureResources
@DisplayName("TensorFlowContainer")
class TensorFlowContainerIT {

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    @DisplayName("trains two epochs under a 2 GiB / 2 CPU limit, and the loss goes down, within its budget")
    // measured here: about 100 MiB peak, 1.5-2.5 s of CPU, 40 tasks
    @ResourceBudget(peakMemory = "400MiB", memoryHeadroom = "50%", cpuTime = "15s", peakPids = "150")
    void trainsTwoEpochsAndTheLossDecreases(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train("--epochs", "2");

        assertThat(monitor.usage()).wasNotOomKilled().hasPeakMemoryAtLeast("50MiB").hasCpuTimeAtLeast("500ms");
        assertThat(result.exitCode()).isZero();
        assertThat(result.epochs()).hasSize(2);
        assertThat(result.epochs().get(1).loss()).isLessThan(result.epochs().get(0).loss());
        assertThat(result.examplesPerSecond()).isPresent();
    }

    @Test
    @DisplayName("runs with the limits it was given")
    void appliesItsLimits() {
        var host = tf.getContainerInfo().getHostConfig();
        assertThat(host.getMemory()).isEqualTo(DataSize.parse("2GiB").toBytes());
        assertThat(host.getNanoCPUs()).isEqualTo(2_000_000_000L);
    }

    @Test
    @DisplayName("a bad flag fails with the workload's usage message and exit code 2")
    void badFlagFailsWithUsage() throws Exception {
        TrainingResult result = tf.trainAllowingFailure("--no-such-flag", "1");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("--batch-size");
    }

    @Test
    @DisplayName("training output reaches the container's log")
    void outputReachesTheLog() throws Exception {
        tf.train("--epochs", "1", "--steps-per-epoch", "5");

        assertThat(tf.getLogs()).contains("epoch=1 loss=");
    }
}
