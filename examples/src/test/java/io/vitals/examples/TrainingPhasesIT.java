package io.vitals.examples;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;

/**
 * One test, three phases, each with its own budget: a whole-test budget would let a slow evaluation hide behind a
 * cheap training run, or the other way round. The phases are marked with {@code monitor.mark(...)}:
 * <ul>
 *   <li>{@code build}: load TensorFlow and build and run a first graph ({@code train --warmup}), then write the
 *       training and held-out datasets inside the container;</li>
 *   <li>{@code train}: three epochs over the training set with a checkpoint after each;</li>
 *   <li>{@code evaluate}: one pass over the held-out set (written with another seed). The workload has no
 *       inference-only mode, so this pass still takes gradient steps; it stands for an evaluation job's shape:
 *       a single, shorter pass over unseen data, no checkpoints.</li>
 * </ul>
 * Each phase gets its figures in the report, and the test asserts on {@code monitor.usage().phase("train")}.
 *
 * <p>Measured by the noise harness ({@code run.sh noise --runs 10 --modes hog}: a busy loop on one core, a 1 GiB
 * memory hog and a direct-I/O loop on this two-core machine), two series of 10 runs: build 1.25 to 1.84 s of CPU
 * and 71 to 201 MiB; train 3.54 to 4.27 s, 114 to 202 MiB; evaluate 1.40 to 1.93 s, 104 to 306 MiB. The memory
 * maxima come from one run in twenty, where the datasets this test writes and reads stayed in the container's
 * <em>active</em> page cache, which MEM USAGE (usage minus inactive file pages) counts, as docker stats does; the
 * other nineteen peaked at 71 to 128, 114 to 124 and 104 to 146 MiB. An earlier series (4 runs next to concurrent
 * builds) measured up to 2.7, 5.4 and 2.6 s of CPU. Budgets: peak memory about 1.5 times the highest peak, CPU
 * time the loaded maximum plus 50 % or more: build 320MiB and 4 s, train 320MiB and 10 s, evaluate 448MiB and 5 s.
 */
@MeasureResources
@ResourceBudget(phase = "build", peakMemory = "320MiB", cpuTime = "4s")
@ResourceBudget(phase = "train", peakMemory = "320MiB", cpuTime = "10s", peakPids = "64")
@ResourceBudget(phase = "evaluate", peakMemory = "448MiB", cpuTime = "5s")
class TrainingPhasesIT {

    @Container
    static final TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    void buildTrainEvaluateEachWithinItsBudget(ResourceMonitor monitor) throws Exception {
        monitor.mark("build");
        tf.train("--warmup");
        tf.train("--write-dataset", "/tmp/train.bin", "--examples", "40000");
        tf.train("--write-dataset", "/tmp/holdout.bin", "--examples", "10000", "--seed", "1234");

        monitor.mark("train");
        TrainingResult training = tf.train("--data-file", "/tmp/train.bin", "--epochs", "3", "--batch-size", "256",
                "--preprocess-cost", "10000", "--checkpoint-dir", "/tmp/checkpoints");

        monitor.mark("evaluate");
        TrainingResult evaluation = tf.train("--data-file", "/tmp/holdout.bin", "--epochs", "1", "--batch-size",
                "256", "--preprocess-cost", "10000");

        ResourceUsage whole = monitor.usage();
        ExampleSupport.printEpochs("train", training);
        ExampleSupport.printEpochs("evaluate", evaluation);
        System.out.println("phase    | start   | wall    | CPU time | avg CPU | peak memory | peak PIDs");
        System.out.println("---------+---------+---------+----------+---------+-------------+----------");
        for (ResourceUsage.Phase phase : whole.phases()) {
            ResourceUsage u = phase.usage();
            System.out.printf(Locale.ROOT, "%-8s | %7s | %7s | %8s | %7s | %11s | %9d%n", phase.name(),
                    ExampleSupport.seconds(phase.start()), ExampleSupport.seconds(u.wallTime()),
                    ExampleSupport.seconds(u.cpuTime()), u.averageCpuPercent(), u.peakMemory(), u.peakPids());
        }

        assertThat(training.epochs()).hasSize(3);
        assertThat(training.finalLoss().orElseThrow()).isLessThan(training.epochs().get(0).loss());
        assertThat(evaluation.epochs()).hasSize(1);
        assertThat(whole.phases()).extracting(ResourceUsage.Phase::name).containsExactly("build", "train",
                "evaluate");
        ResourceUsage train = whole.phase("train").orElseThrow().usage();
        ResourceUsage evaluate = whole.phase("evaluate").orElseThrow().usage();
        assertThat(whole).phase("train").hasCpuTimeAtLeast("1s").hasPeakMemoryAtMost("320MiB").wasNotOomKilled();
        assertThat(train.cpuTime()).as("training (3 epochs over 40,000) vs evaluation (1 over 10,000) CPU time")
                .isGreaterThan(evaluate.cpuTime());
        assertThat(train.cpuTime().plus(evaluate.cpuTime())).as("phases are parts of the test")
                .isLessThanOrEqualTo(whole.cpuTime());
    }
}
