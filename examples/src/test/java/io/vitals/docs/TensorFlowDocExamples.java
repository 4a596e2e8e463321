package io.vitals.docs;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.utility.MountableFile;

/**
 * The examples of docs/tensorflow.md, compiled but never run by the build: no class here ends in IT or Tests.
 */
final class TensorFlowDocExamples {

    private TensorFlowDocExamples() {
    }

    static TensorFlowContainer limits() {
        // tag::limits[]
        TensorFlowContainer tf = new TensorFlowContainer()   // vitals/tensorflow:latest, or -Dvitals.tensorflow.image
                .withMemoryLimit("2GiB")                     // docker run --memory 2g
                .withMemorySwapLimit("2GiB")                 // --memory-swap: equal to the memory limit = no swap
                .withCpuLimit(1.5)                           // --cpus 1.5
                .withCpuset("0-1")                           // --cpuset-cpus 0-1
                .withPidsLimit(256)                          // --pids-limit 256
                .withShmSize("1GiB");                        // --shm-size 1g (/dev/shm)
        // end::limits[]
        return tf;
    }

    static TensorFlowContainer javaOptions() {
        // tag::java-opts[]
        TensorFlowContainer tf = new TensorFlowContainer()
                .withMemoryLimit("2GiB")
                .withEnv("JAVA_OPTS", "-XX:MaxRAMPercentage=25"); // read by the image's train launcher
        // end::java-opts[]
        return tf;
    }

    static TensorFlowContainer registryImage() {
        // tag::registry-image[]
        TensorFlowContainer tf = new TensorFlowContainer("tensorflow/tensorflow:2.16.1")
                .withCopyFileToContainer(MountableFile.forClasspathResource("train.py"), "/work/train.py")
                .withTrainCommand("python", "/work/train.py")
                .withEnv("TF_NUM_INTRAOP_THREADS", "2")
                .withEnv("TF_NUM_INTEROP_THREADS", "1")
                .withEnv("TF_CPP_MIN_LOG_LEVEL", "1")
                .withMemoryLimit("4GiB")
                .withCpuLimit(2.0);
        // end::registry-image[]
        return tf;
    }

    static TensorFlowContainer gpuImage() {
        // tag::gpu-image[]
        TensorFlowContainer tf = new TensorFlowContainer("tensorflow/tensorflow:2.16.1-gpu")
                .withGpus("all")                              // or "1", or "device=0,1"; needs the NVIDIA runtime
                .withEnv("TF_FORCE_GPU_ALLOW_GROWTH", "true") // allocate GPU memory as needed, not all at start
                .withCopyFileToContainer(MountableFile.forClasspathResource("train.py"), "/work/train.py")
                .withTrainCommand("python", "/work/train.py")
                .withMemoryLimit("16GiB")
                .withShmSize("2GiB");
        // end::gpu-image[]
        return tf;
    }
}

// tag::train-result[]
@MeasureResources
class TrainingResultExample {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    @ResourceBudget(peakMemory = "512MiB", cpuTime = "20s")
    void lossDecreases(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train("--epochs", "3", "--batch-size", "128",
                "--intra-op-threads", "2", "--inter-op-threads", "1");

        assertThat(result.epochs()).hasSize(3);
        assertThat(result.finalLoss().orElseThrow()).isLessThan(result.epochs().get(0).loss());
        assertThat(result.examplesPerSecond().orElseThrow()).isGreaterThan(1_000);
        assertThat(monitor.usage()).hasAverageCpuAtMost("200%");
    }
}
// end::train-result[]

// tag::failed-training[]
@MeasureResources
class FailedTrainingExample {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB");

    @Test
    void badFlagIsReported() throws Exception {
        TrainingResult result = tf.trainAllowingFailure("--epochs", "0");

        assertThat(result.succeeded()).isFalse();
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("train: --epochs must be between 1 and");
    }
}
// end::failed-training[]
