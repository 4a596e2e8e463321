package io.vitals.matrix;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** The fixture's container: the project's stress image, idle until a test runs a command in it. */
final class FixtureContainer extends GenericContainer<FixtureContainer> {

    FixtureContainer() {
        super(DockerImageName.parse("vitals/stress:latest"));
        withCommand("sleep", "infinity");
        withLabel("io.vitals.managed", "true"); // leftovers are found and removed by examples/setup/cleanup.sh
        withImagePullPolicy(name -> false);
        // -Dmatrix.network=none: the second engine (examples/setup/second-engine.sh) has no bridge networking
        String network = System.getProperty("matrix.network", "");
        if (!network.isEmpty()) {
            withNetworkMode(network);
        }
    }

    /**
     * Touches {@code mib} MiB of memory for a moment, so every test measures something real; with
     * {@code -Dmatrix.work=wait}, waits a second instead, as a test waiting for a server's answer does (the wall-time
     * benchmark of parallel execution, docs/benchmarks.md).
     */
    void touch(int mib) throws Exception {
        ExecResult result = "wait".equals(System.getProperty("matrix.work"))
                ? execInContainer("sleep", "1")
                : execInContainer("stress-ng", "--vm", "1", "--vm-bytes", mib + "M", "--vm-keep", "--timeout", "1s",
                        "--quiet");
        if (result.getExitCode() != 0) {
            throw new AssertionError("stress-ng exited " + result.getExitCode() + ": " + result.getStderr());
        }
    }
}
