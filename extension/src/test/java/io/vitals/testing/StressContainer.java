package io.vitals.testing;

import io.vitals.DataSize;
import io.vitals.tensorflow.TensorFlowContainer;

import java.io.IOException;

import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The project's stress image ({@code vitals/stress:latest}: Debian + stress-ng), for tests that need a known
 * footprint: a memory spike of N MiB for T ms, N CPU workers for T s, N processes. Labelled like every container
 * the project makes, so leftovers are found and removed.
 */
public final class StressContainer extends GenericContainer<StressContainer> {

    public static final String IMAGE = "vitals/stress:latest";

    public StressContainer() {
        super(DockerImageName.parse(IMAGE));
        withCommand("sleep", "infinity");
        withLabel(TensorFlowContainer.LABEL, "true");
        withImagePullPolicy(name -> false);
    }

    public StressContainer withMemoryLimit(String size) {
        long bytes = DataSize.parse(size).toBytes();
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMemory(bytes).withMemorySwap(bytes));
    }

    public StressContainer withCpuLimit(double cpus) {
        long nanos = Math.round(cpus * 1e9);
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withNanoCPUs(nanos));
    }

    /**
     * A CPU limit as a CFS period and quota, which {@code docker update} can change while the container runs
     * (a {@code --cpus} limit, {@link #withCpuLimit}, cannot be changed that way).
     */
    public StressContainer withCpuQuota(long periodMicros, long quotaMicros) {
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withCpuPeriod(periodMicros)
                .withCpuQuota(quotaMicros));
    }

    public StressContainer withPidsLimit(long pids) {
        return withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPidsLimit(pids));
    }

    /** Runs a shell command in the container and fails on a non-zero exit. */
    public Container.ExecResult sh(String script) throws IOException, InterruptedException {
        Container.ExecResult result = execInContainer("bash", "-c", script);
        if (result.getExitCode() != 0) {
            throw new AssertionError("'" + script + "' exited " + result.getExitCode() + ": " + result.getStdout()
                    + result.getStderr());
        }
        return result;
    }

    /** Runs a shell command and returns its exit code, whatever it is. */
    public long shExitCode(String script) throws IOException, InterruptedException {
        return execInContainer("bash", "-c", script).getExitCode();
    }
}
