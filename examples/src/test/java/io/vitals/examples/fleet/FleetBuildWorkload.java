package io.vitals.examples.fleet;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceMonitor;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import org.junit.jupiter.api.RepeatedTest;
import org.testcontainers.junit.jupiter.Container;

/**
 * The "build" of the testbed harness ({@code run.sh testbeds}, docs/benchmarks.md, "Verdicts over time"): a short
 * training run three times, in a container with a memory limit and no CPU limit, as many suites run on CI. TensorFlow
 * sizes its thread pools from the CPUs it sees, so on a 1-CPU runner its CPU time, threads and even peak memory move
 * without any change to the code: what the run history's testbeds are for. Not an example to copy (its name matches
 * neither Surefire's nor Failsafe's patterns): the harness starts it with the console launcher, one JVM a build.
 */
@MeasureResources
class FleetBuildWorkload {

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB");

    @RepeatedTest(3)
    void oneEpoch(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train("--epochs", "1");

        assertThat(result.epochs()).hasSize(1);
        assertThat(monitor.usage()).wasNotOomKilled().hasCpuTimeAtLeast("300ms");
    }
}
