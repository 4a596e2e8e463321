package io.vitals.docs;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.Measured;
import io.vitals.ProbeMode;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

/**
 * The examples of docs/budgets.md, compiled but never run by the build: no class here ends in IT or Tests.
 */
final class BudgetsDocExamples {

    private BudgetsDocExamples() {
    }
}

// tag::class-and-method[]
@MeasureResources
@ResourceBudget(peakMemory = "1GiB", cpuTime = "60s", peakPids = "64")
class ClassAndMethodBudgets {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    void usesTheClassBudget() throws Exception {
        tf.train("--epochs", "1");
    }

    @Test
    @ResourceBudget(peakMemory = "1.5GiB") // overrides peakMemory only; cpuTime and peakPids still apply
    void widerModelMayUseMoreMemory() throws Exception {
        tf.train("--epochs", "1", "--width", "512");
    }
}
// end::class-and-method[]

// tag::several-containers[]
@MeasureResources
class SeveralContainers {

    @Container
    static TensorFlowContainer trainer = new TensorFlowContainer().withMemoryLimit("2GiB");

    @Container
    static TensorFlowContainer evaluator = new TensorFlowContainer().withMemoryLimit("1GiB");

    @Test
    @ResourceBudget(container = "trainer", peakMemory = "1.5GiB", cpuTime = "60s")
    @ResourceBudget(container = "evaluator", peakMemory = "512MiB")
    void trainThenEvaluate() throws Exception {
        trainer.train("--epochs", "2", "--checkpoint-dir", "/tmp/ckpt");
        evaluator.train("--epochs", "1", "--steps-per-epoch", "5");
    }
}
// end::several-containers[]

// tag::phases[]
@MeasureResources
class PhaseBudgets {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    @ResourceBudget(peakMemory = "1.5GiB") // the whole test
    @ResourceBudget(phase = "train", cpuTime = "60s") // from mark("train") to the next mark
    @ResourceBudget(phase = "evaluate", peakMemory = "512MiB", cpuTime = "5s") // from mark("evaluate") to the end
    void trainThenEvaluate(ResourceMonitor monitor) throws Exception {
        monitor.mark("train");
        tf.train("--epochs", "2");
        monitor.mark("evaluate");
        tf.train("--epochs", "1", "--steps-per-epoch", "5");
    }
}
// end::phases[]

// tag::allow-oom-kill[]
@MeasureResources
class ExpectedOomKill {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("512MiB");

    @Test
    @ResourceBudget(allowOomKill = true)
    void batchTooLargeIsKilled(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.trainAllowingFailure("--epochs", "1", "--batch-size", "16384", "--width", "16384");

        assertThat(result.exitCode()).isEqualTo(137); // SIGKILL from the OOM killer
        assertThat(monitor.usage()).wasOomKilled();
    }
}
// end::allow-oom-kill[]

// tag::fail-fast[]
@MeasureResources
class FailFastBudget {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("4GiB");

    @Test
    @ResourceBudget(peakMemory = "1GiB", peakPids = "128", failFast = true)
    void leakyTrainingIsStoppedEarly() throws Exception {
        tf.train("--epochs", "50", "--leak-cache-mib", "64"); // interrupted once a sample shows > 1 GiB
    }
}
// end::fail-fast[]

// tag::measure-resources[]
@MeasureResources(samplingInterval = "20ms", probe = ProbeMode.HOST_CGROUP, reportDir = "target/vitals-training",
        memoryWarning = "80%")
class TunedMeasurement {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB");

    @Test
    void trains() throws Exception {
        tf.train("--epochs", "1");
    }
}
// end::measure-resources[]

// tag::measured-field[]
@MeasureResources
class StartedByHand {

    @Measured
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB");

    @BeforeAll
    static void start() {
        tf.start();
    }

    @AfterAll
    static void stop() {
        tf.stop();
    }

    @Test
    @ResourceBudget(peakMemory = "1GiB")
    void trains() throws Exception {
        tf.train("--epochs", "1");
    }
}
// end::measured-field[]
