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
 * <p>Where the numbers come from: measured on a two-core machine, this run peaks at 92 to 104 MiB (MEM USAGE, as
 * docker stats shows it), uses about 1.7 s of CPU and runs 30 tasks. The budgets give about twice that: 192 MiB,
 * 4 s (CPU time also grows a little when the machine is shared) and 64 tasks.
 */
// tag::readme[]
@MeasureResources
class TrainingFitsItsBudgetIT {

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    @ResourceBudget(peakMemory = "192MiB", memoryHeadroom = "20%", cpuTime = "4s", peakPids = "64")
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
