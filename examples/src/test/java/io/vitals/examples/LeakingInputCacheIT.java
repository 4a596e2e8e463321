package io.vitals.examples;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.junit.jupiter.Container;

/**
 * A leak that a peak-memory budget would miss in a short test: an input "cache" that keeps a copy of every batch
 * and never frees it ({@code --leak-cache-mib 64}: 64 MiB of new off-heap data per epoch). Fourteen short epochs end
 * far below the 2 GiB limit, so only the trend gives it away; over a real multi-hour run it ends in an OOM kill.
 * A {@code memoryGrowth} budget (Theil–Sen slope of memory over the test, robust to spikes and GC saw-teeth)
 * catches it: {@link LeakyPipeline} breaks it and is asserted to fail, and the fixed pipeline passes the very same
 * budget.
 */
@MeasureResources
class LeakingInputCacheIT {

    /**
     * Shared by the leaky fixture and the fixed run, so both are held to the same rule. Measured by the noise
     * harness ({@code run.sh noise --runs 10 --modes hog}: a busy loop on one core, a memory and an I/O hog, on this
     * two-core machine), two series of 10 runs: the fixed pipeline grew 34 to 555 MiB/min (median 73), the leaky one
     * 1.8 to 3.3 GiB/min (3.9 GiB/min on a quiet CI run). 300MiB/min, the earlier guess, failed the fixed pipeline
     * in 2 of those 20 runs. 1GiB/min sits 1.8 times above the fixed pipeline's highest and 1.8 times below the
     * leak's lowest.
     */
    static final String GROWTH_BUDGET = "1GiB/min";

    // Fourteen epochs: memory growth is "too short to estimate a trend" on a window under 10 s, and a budget on it
    // is then not judged. Eight epochs took 11.5 s on a quiet machine but 8.3 s to 9.7 s on a fast CI run on
    // 2026-12-03, where the leak went unjudged and this class failed. Fourteen take 14 s or more at the fastest
    // epoch seen (1.0 s) and keep the leak's 64 MiB per epoch (about 1 GiB in all) well under the 2 GiB limit. The
    // rates do not depend on the number of epochs (each takes as long), so the budget's spread above still holds.
    static final String[] EPOCHS = {"--epochs", "14", "--steps-per-epoch", "200"};

    static final Duration TREND_WINDOW = Duration.ofSeconds(10);

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    void theLeakBreaksTheGrowthBudget() {
        EngineExecutionResults results = ExampleSupport.runFixture(LeakyPipeline.class);

        List<Throwable> failures = ExampleSupport.failures(results);
        assertThat(failures).hasSize(1);
        ExampleSupport.printExpected("memory growth breach", failures.get(0));
        assertThat(failures.get(0)).isInstanceOf(ResourceBudgetExceededError.class)
                .hasMessageStartingWith("Resource budget exceeded by container 'tf'")
                .hasMessageContaining("memory growth ")
                .hasMessageContaining("exceeds the budget of " + GROWTH_BUDGET);
    }

    @Test
    @ResourceBudget(memoryGrowth = GROWTH_BUDGET)
    void theFixedPipelinePassesTheSameBudget(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train(EPOCHS);

        ResourceUsage usage = monitor.usage();
        ExampleSupport.printEpochs("fixed", result);
        ExampleSupport.printUsage("fixed", usage);
        System.out.println("fixed: memory growth " + usage.memoryGrowth() + " (budget " + GROWTH_BUDGET + ")");
        assertThat(result.epochs()).hasSize(14);
        // the annotation's budget is judged only on a window of 10 s or more: without this the run could pass
        // without its budget ever being checked
        assertThat(usage.wallTime()).as("a window long enough for the memoryGrowth budget to be judged")
                .isGreaterThanOrEqualTo(TREND_WINDOW);
        assertThat(usage).hasMemoryGrowthAtMost(GROWTH_BUDGET);
    }

    /** The leaky pipeline under the same budget. Run only through the kit: it is meant to fail. */
    @MeasureResources
    static class LeakyPipeline {

        @Container
        static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

        @Test
        @ResourceBudget(memoryGrowth = GROWTH_BUDGET)
        void trainsWithALeakingInputCache(ResourceMonitor monitor) throws Exception {
            String[] args = new String[EPOCHS.length + 2];
            System.arraycopy(EPOCHS, 0, args, 0, EPOCHS.length);
            args[EPOCHS.length] = "--leak-cache-mib";
            args[EPOCHS.length + 1] = "64";
            tf.train(args);
            ResourceUsage usage = monitor.usage();
            ExampleSupport.printUsage("leaky", usage);
            System.out.println("leaky: memory growth " + usage.memoryGrowth() + " (budget " + GROWTH_BUDGET + ")");
        }
    }
}
