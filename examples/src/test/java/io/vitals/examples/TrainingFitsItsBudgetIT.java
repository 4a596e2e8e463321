package io.vitals.examples;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

/**
 * The everyday case: a short training run that must fit the resources its job is given. The container gets a
 * 2 GiB limit and two cores, and the test declares what a person would put in a job spec review: a peak memory
 * ceiling, 20 % of the limit kept free at the peak, a CPU-time ceiling and a thread ceiling. Any regression that
 * breaks one (a bigger model, a thread-pool explosion) fails the test with the figure and the budget; the loss
 * check makes sure the run actually trained, so a run that "fits" by doing nothing does not pass.
 *
 * <p>Where the numbers come from (the noise harness, {@code run.sh noise}, docs/benchmarks.md): over 4 runs on a
 * loaded two-core machine (a busy loop on one core plus concurrent builds), this run peaked at 88 to 95 MiB of
 * working set (MEM USAGE, as docker stats shows it), used 2.4 to 3.5 s of CPU and ran 30 tasks; on an idle machine
 * about 1.7 s. Peak memory barely moves with load, CPU time does, so the budgets are: 192 MiB (twice the peak),
 * 6 s (the loaded maximum plus 70 %) and 64 tasks.
 */
// tag::readme[]
@MeasureResources
class TrainingFitsItsBudgetIT {

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    @ResourceBudget(peakMemory = "192MiB", memoryHeadroom = "20%", cpuTime = "6s", peakPids = "64")
    void twoShortEpochsFitTheBudgetAndTheLossDecreases(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train("--epochs", "2");
        // end::readme[]
        ResourceUsage usage = monitor.usage();
        ExampleSupport.printEpochs("fits-budget", result);
        ExampleSupport.printUsage("fits-budget", usage);
        assertThat(result.epochs()).hasSize(2);
        // tag::readme[]

        assertThat(result.epochs().get(1).loss()).as("loss after epoch 2 vs epoch 1")
                .isLessThan(result.epochs().get(0).loss());
        assertThat(monitor.usage()).wasNotOomKilled().hasCpuTimeAtLeast("500ms"); // it did real work
    }
}
// end::readme[]
