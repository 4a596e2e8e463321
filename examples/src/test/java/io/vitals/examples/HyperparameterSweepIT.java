package io.vitals.examples;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testcontainers.junit.jupiter.Container;

/**
 * A small hyperparameter sweep over batch size and input threads, every configuration under one budget, ranked at
 * the end by throughput per GiB of peak memory: the figure that decides how many jobs fit on a node. Each
 * configuration trains on the same number of examples per epoch (16,384), so their CPU times are comparable. The
 * HTML report draws the configurations side by side, as it does for every parameterized test.
 *
 * <p>The budget is one for the whole sweep, as a job template would have it. Measured by the noise harness over 4
 * runs on a loaded two-core machine (a busy loop on one core plus concurrent builds): the configurations peak at
 * 90 to 125 MiB, use 4.9 to 7.4 s of CPU (batch 4096 is the slow one: its preprocessing runs in bursts the two
 * threads cannot overlap with the big matrix products; 3.6 to 5.8 s on an idle machine) and 30 to 33 tasks; the
 * budget allows 256 MiB, 12 s (the loaded maximum plus 60 %) and 64.
 */
@MeasureResources
@ResourceBudget(peakMemory = "256MiB", cpuTime = "12s", peakPids = "64")
class HyperparameterSweepIT {

    static final int EXAMPLES_PER_EPOCH = 16_384;

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    record Outcome(int batchSize, int inputThreads, double examplesPerSecond, DataSize peakMemory, double loss,
            String averageCpu) {

        double examplesPerSecondPerGiB() {
            return examplesPerSecond / peakMemory.toGiB();
        }
    }

    static final Map<String, Outcome> OUTCOMES = new ConcurrentHashMap<>();

    @ParameterizedTest(name = "batch {0}, {1} input threads")
    @CsvSource({"64, 1", "64, 4", "512, 1", "512, 4", "4096, 2"})
    void configurationFitsTheBudget(int batchSize, int inputThreads, ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train("--epochs", "2", "--batch-size", String.valueOf(batchSize),
                "--steps-per-epoch", String.valueOf(EXAMPLES_PER_EPOCH / batchSize), "--input-threads",
                String.valueOf(inputThreads));

        ResourceUsage usage = monitor.usage();
        Outcome outcome = new Outcome(batchSize, inputThreads, result.examplesPerSecond().orElseThrow(),
                usage.peakMemory(), result.finalLoss().orElseThrow(), usage.averageCpuPercent().toString());
        OUTCOMES.put(batchSize + "/" + inputThreads, outcome);
        ExampleSupport.printUsage("sweep batch " + batchSize + ", " + inputThreads + " threads", usage);

        assertThat(result.epochs()).hasSize(2);
        assertThat(usage).wasNotOomKilled();
    }

    @AfterAll
    static void printRanking() {
        System.out.println("rank | batch | input threads | examples/s | peak memory | examples/s per GiB | avg CPU"
                + " | final loss");
        System.out.println("-----+-------+---------------+------------+-------------+--------------------+--------"
                + "-+-----------");
        int[] rank = {1};
        OUTCOMES.values().stream().sorted(Comparator.comparingDouble(Outcome::examplesPerSecondPerGiB).reversed())
                .forEach(o -> System.out.printf(Locale.ROOT, "%4d | %5d | %13d | %,10.0f | %11s | %,18.0f | %7s"
                        + " | %10.4f%n", rank[0]++, o.batchSize(), o.inputThreads(), o.examplesPerSecond(),
                        o.peakMemory(), o.examplesPerSecondPerGiB(), o.averageCpu(), o.loss()));
    }
}
