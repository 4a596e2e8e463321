package io.vitals.tensorflow;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.github.dockerjava.api.model.DeviceRequest;
import io.vitals.DataSize;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apiguardian.api.API;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A container for TensorFlow workloads, with docker run's resource limits as first-class settings.
 *
 * <p>The container idles ({@code sleep infinity}) and each {@link #train(String...)} runs the training command
 * inside it, so one container can serve several tests, each measured on its own. The training output is also
 * copied to the container's log, where failure reports find it.
 *
 * <p>The image is the one given, else the system property {@value #IMAGE_PROPERTY}, else
 * {@value #DEFAULT_IMAGE}, the image this project builds (TensorFlow Java 1.1.0 on Debian with a {@code train}
 * command). For a {@code tensorflow/tensorflow} image from a registry, run Python scripts with
 * {@code withTrainCommand("python", "/work/train.py")} and copy them in with {@code withCopyFileToContainer};
 * Testcontainers pulls an image only when the engine does not have it yet.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class TensorFlowContainer extends GenericContainer<TensorFlowContainer> {

    /** System property naming the image: {@value}. */
    public static final String IMAGE_PROPERTY = "vitals.tensorflow.image";

    /** The image built by this project's scripts: {@value}. */
    public static final String DEFAULT_IMAGE = "vitals/tensorflow:latest";

    /**
     * System property with flags added to every training run of every container this class creates, e.g.
     * {@code -Dvitals.tensorflow.trainArgs="--intra-op-threads 2"}: {@value}. See {@link #withTrainArgs(String...)}.
     */
    public static final String TRAIN_ARGS_PROPERTY = "vitals.tensorflow.trainArgs";

    /** Label put on every container this class creates, so leftovers can be found and removed: {@value}. */
    public static final String LABEL = "io.vitals.managed";

    private static final int OUTPUT_TAIL_LINES = 30;

    /** The environment variable the image's {@code train} launcher appends to its flags. */
    private static final String TRAIN_ARGS_ENV = "TRAIN_ARGS";

    /**
     * Set to {@code true} by default: TensorFlow then allocates GPU memory as it needs it, instead of reserving
     * nearly all of it at start, so that GPU memory figures and budgets mean something. Override with
     * {@code withEnv(ALLOW_GROWTH_ENV, "false")}.
     */
    public static final String ALLOW_GROWTH_ENV = "TF_FORCE_GPU_ALLOW_GROWTH";

    private List<String> trainCommand = List.of("train");

    /** A container of the image named by {@value #IMAGE_PROPERTY}, or of {@value #DEFAULT_IMAGE}. */
    public TensorFlowContainer() {
        this(DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE)));
    }

    /**
     * A container of {@code image}, which must run the training command as this image's launcher does.
     *
     * @param image the image's name, e.g. {@code "vitals/tensorflow:latest"}
     */
    public TensorFlowContainer(String image) {
        this(DockerImageName.parse(image));
    }

    /**
     * A container of {@code image}; see {@link #TensorFlowContainer(String)}.
     *
     * @param image the image
     */
    public TensorFlowContainer(DockerImageName image) {
        super(image);
        withCommand("sleep", "infinity");
        withLabel(LABEL, "true");
        // TensorFlow reserves nearly all GPU memory at start unless memory growth is on; with it, the GPU memory
        // Vitals reports is what the job uses (docs/tensorflow.md, "GPU memory")
        withEnv(ALLOW_GROWTH_ENV, "true");
        String suiteWide = System.getProperty(TRAIN_ARGS_PROPERTY, "").trim();
        if (!suiteWide.isEmpty()) {
            withEnv(TRAIN_ARGS_ENV, suiteWide);
        }
    }

    /**
     * Flags added after the arguments of every {@link #train(String...)} of this container, so they win over
     * them. Meant for settings that belong to the machine rather than the test, such as the size of TensorFlow's
     * thread pools on a CI runner. The image's launcher reads them from the environment variable
     * {@code TRAIN_ARGS}; replaces {@value #TRAIN_ARGS_PROPERTY}.
     *
     * @param flags the flags, e.g. {@code "--threads=2"}
     * @return this container
     */
    public TensorFlowContainer withTrainArgs(String... flags) {
        return withEnv(TRAIN_ARGS_ENV, String.join(" ", flags));
    }

    /**
     * Hard memory limit, like {@code docker run --memory}: e.g. {@code "2GiB"}, {@code "512m"}.
     *
     * @param size the limit with its unit
     * @return this container
     */
    public TensorFlowContainer withMemoryLimit(String size) {
        return withMemoryLimit(DataSize.parse(size));
    }

    /**
     * Hard memory limit, like {@code docker run --memory}.
     *
     * @param size the limit
     * @return this container
     */
    public TensorFlowContainer withMemoryLimit(DataSize size) {
        long bytes = size.toBytes();
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMemory(bytes));
    }

    /**
     * Memory plus swap, like {@code docker run --memory-swap}; equal to the memory limit means no swap.
     *
     * @param size memory plus swap, with its unit
     * @return this container
     */
    public TensorFlowContainer withMemorySwapLimit(String size) {
        return withMemorySwapLimit(DataSize.parse(size));
    }

    /**
     * Memory plus swap, like {@code docker run --memory-swap}; equal to the memory limit means no swap.
     *
     * @param size memory plus swap
     * @return this container
     */
    public TensorFlowContainer withMemorySwapLimit(DataSize size) {
        long bytes = size.toBytes();
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMemorySwap(bytes));
    }

    /**
     * CPU limit in cores, like {@code docker run --cpus 1.5}.
     *
     * @param cpus the limit in cores, positive and finite
     * @return this container
     */
    public TensorFlowContainer withCpuLimit(double cpus) {
        if (!(cpus > 0) || Double.isInfinite(cpus)) {
            throw new IllegalArgumentException("CPU limit must be a positive number of cores: " + cpus);
        }
        long nanoCpus = Math.round(cpus * 1e9);
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withNanoCPUs(nanoCpus));
    }

    /**
     * CPUs the container may run on, like {@code docker run --cpuset-cpus 0-1}.
     *
     * @param cpus the CPUs' numbers, as {@code --cpuset-cpus} takes them, e.g. {@code "0-1"} or {@code "0,2"}
     * @return this container
     */
    public TensorFlowContainer withCpuset(String cpus) {
        Objects.requireNonNull(cpus, "cpus");
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withCpusetCpus(cpus));
    }

    /**
     * Limit on tasks, like {@code docker run --pids-limit}.
     *
     * @param pids the most tasks (processes and threads) the container may have, positive
     * @return this container
     */
    public TensorFlowContainer withPidsLimit(long pids) {
        if (pids <= 0) {
            throw new IllegalArgumentException("PIDs limit must be positive: " + pids);
        }
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPidsLimit(pids));
    }

    /**
     * Size of {@code /dev/shm}, like {@code docker run --shm-size}; data loaders often need more than 64 MB.
     *
     * @param size the size with its unit, e.g. {@code "1GiB"}
     * @return this container
     */
    public TensorFlowContainer withShmSize(String size) {
        return withSharedMemorySize(DataSize.parse(size).toBytes());
    }

    /**
     * GPUs, like {@code docker run --gpus}: {@code "all"}, a count ({@code "2"}) or {@code "device=0,1"}. Needs
     * the NVIDIA container runtime on the engine's host. The engine's runtimes are not checked beforehand (as
     * Testcontainers' Ollama module does, which Docker Desktop's phantom {@code nvidia} runtime fools:
     * testcontainers-java #9287): an engine without GPU support refuses the container with "could not select
     * device driver".
     *
     * @param gpus {@code "all"}, a count or {@code "device=..."} with indexes or UUIDs
     * @return this container
     */
    public TensorFlowContainer withGpus(String gpus) {
        DeviceRequest request = new DeviceRequest().withDriver("nvidia")
                .withCapabilities(List.of(List.of("gpu")));
        String value = gpus.trim();
        if (value.equals("all")) {
            request = request.withCount(-1);
        } else if (value.startsWith("device=")) {
            request = request.withDeviceIds(Arrays.asList(value.substring("device=".length()).split(",")));
        } else if (value.matches("[0-9]+")) {
            request = request.withCount(Integer.parseInt(value));
        } else {
            throw new IllegalArgumentException("Invalid GPU request '" + gpus
                    + "': expected all, a count such as 2, or device=0,1");
        }
        DeviceRequest finalRequest = request;
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
                .withDeviceRequests(List.of(finalRequest)));
    }

    /**
     * Gives the container {@code count} GPUs, as {@code docker run --gpus N} does.
     *
     * @param count how many GPUs, at least 1
     * @return this container
     * @throws IllegalArgumentException if {@code count} is not positive
     */
    public TensorFlowContainer withGpus(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("GPU count must be at least 1: " + count);
        }
        return withGpus(Integer.toString(count));
    }

    /**
     * Gives the container the GPUs with these indexes or UUIDs, as {@code docker run --gpus '"device=0,1"'} does.
     * A single argument is read as {@link #withGpus(String)} reads it.
     *
     * @param ids the GPUs' indexes or UUIDs
     * @return this container
     * @throws IllegalArgumentException if no ID is given
     */
    public TensorFlowContainer withGpus(String... ids) {
        if (ids.length == 0) {
            throw new IllegalArgumentException("at least one GPU index or UUID is required");
        }
        return withGpus("device=" + String.join(",", ids));
    }

    /**
     * Sizes TensorFlow's two thread pools, for every TensorFlow program in the container (Python or Java): the
     * environment variables {@code TF_NUM_INTRAOP_THREADS} and {@code TF_NUM_INTEROP_THREADS}, which TensorFlow's
     * runtime reads when the program leaves the sizes to it, and {@code OMP_NUM_THREADS} for builds whose oneDNN
     * kernels use OpenMP. Left alone, TensorFlow sizes both pools from the host's CPU count, not the container's
     * {@code --cpus} limit. Setting the intra-op pool to the limit and the inter-op pool to 1 made CPU time of the
     * example jobs 5 to 10 % lower under contention (docs/tensorflow.md, "CPU time under contention"); it does not
     * make CPU time independent of contention.
     *
     * @param intraOp threads inside one op (a matrix multiply), at least 1
     * @param interOp ops run at the same time, at least 1
     * @return this container
     */
    public TensorFlowContainer withThreadPools(int intraOp, int interOp) {
        if (intraOp < 1 || interOp < 1) {
            throw new IllegalArgumentException("Thread pool sizes must be at least 1: intraOp " + intraOp
                    + ", interOp " + interOp);
        }
        return withEnv("TF_NUM_INTRAOP_THREADS", Integer.toString(intraOp))
                .withEnv("TF_NUM_INTEROP_THREADS", Integer.toString(interOp))
                .withEnv("OMP_NUM_THREADS", Integer.toString(intraOp));
    }

    /**
     * The command {@link #train(String...)} runs, before its arguments. Default: {@code train}.
     *
     * @param command the command and its first arguments; at least the command
     * @return this container
     */
    public TensorFlowContainer withTrainCommand(String... command) {
        if (command.length == 0) {
            throw new IllegalArgumentException("The training command must not be empty");
        }
        this.trainCommand = List.of(command);
        return self();
    }

    /**
     * Runs the training command with {@code args} inside the container and waits for it.
     *
     * @param args the arguments to the training command
     * @return the successful run: exit code 0 and its output
     * @throws IOException if the command could not be run in the container
     * @throws InterruptedException if interrupted while waiting for it
     * @throws TrainingFailedException when it exits non-zero; the message carries the tail of its output
     */
    public TrainingResult train(String... args) throws IOException, InterruptedException {
        TrainingResult result = trainAllowingFailure(args);
        if (!result.succeeded()) {
            throw new TrainingFailedException("Training in container " + getContainerName() + " exited with code "
                    + result.exitCode() + (result.exitCode() == 137 ? " (killed: SIGKILL, often the OOM killer)"
                            : "") + "; last lines of its output:\n" + result.outputTail(OUTPUT_TAIL_LINES), result);
        }
        return result;
    }

    /**
     * Like {@link #train(String...)}, but returns a failed run instead of throwing.
     *
     * @param args the arguments to the training command
     * @return the run, with its exit code and output
     * @throws IOException if the command could not be run in the container
     * @throws InterruptedException if interrupted while waiting for it
     */
    public TrainingResult trainAllowingFailure(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        // pipefail keeps the trainer's exit code; tee copies its output to PID 1's stdout, i.e. the container log
        command.addAll(List.of("bash", "-c", "set -o pipefail; \"$@\" 2>&1 | tee -a /proc/1/fd/1", "train"));
        command.addAll(trainCommand);
        command.addAll(Arrays.asList(args));
        Container.ExecResult exec = execInContainer(command.toArray(String[]::new));
        return TrainingResult.of(exec.getExitCode(), exec.getStdout() + exec.getStderr());
    }

    /** {@return labels of this container, for tests and cleanup} */
    public Map<String, String> labels() {
        return getLabels();
    }
}
