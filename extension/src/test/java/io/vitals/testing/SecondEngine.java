package io.vitals.testing;

import static org.assertj.core.api.Assertions.fail;

import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import io.vitals.internal.probe.ContainerTarget;

import java.io.IOException;
import java.net.URI;
import java.util.OptionalLong;

/**
 * A Docker engine the tests reach only over its Engine API and the {@code docker -H} CLI, never through this JVM's
 * view of cgroups: by default the second dockerd on {@code tcp://127.0.0.1:23750} that
 * {@code examples/setup/second-engine.sh} starts. Testcontainers stays pointed at the first engine, so containers
 * on this one are made with the CLI.
 *
 * @param host the engine's address, as {@code docker -H} and the Engine API client take it
 */
public record SecondEngine(String host) {

    /** The second engine of {@code examples/setup/second-engine.sh}. */
    public static final String DEFAULT_HOST = "tcp://127.0.0.1:23750";

    /** The engine named by the system property {@code key}, else the second engine. */
    public static SecondEngine fromProperty(String key) {
        return new SecondEngine(System.getProperty(key, DEFAULT_HOST));
    }

    /**
     * Fails (never skips) when the engine does not answer, or lacks one of {@code images}, naming the setup
     * scripts that make it so: a suite that cannot measure says why instead of passing silently.
     */
    public SecondEngine require(String testClass, String... images) {
        try {
            cli("version", "--format", "{{.Server.Version}}");
        } catch (IOException | InterruptedException e) {
            fail("No Docker engine answers on " + host + ". " + testClass + " needs it: run "
                    + "examples/setup/second-engine.sh (as root) first. Cause: " + e.getMessage(), e);
        }
        for (String image : images) {
            try {
                cli("image", "inspect", "--format", "{{.Id}}", image);
            } catch (IOException | InterruptedException e) {
                fail(testClass + " needs " + image + " on the engine " + host + ": run examples/setup/images.sh, "
                        + "then examples/setup/second-engine.sh. Cause: " + e.getMessage(), e);
            }
        }
        return this;
    }

    /** A new Engine API client of this engine (the caller closes it). */
    public DockerHttpClient client() {
        return new ZerodepDockerHttpClient.Builder().dockerHost(URI.create(host)).build();
    }

    /** Runs {@code docker -H host args…} and returns its standard output; fails on a non-zero exit. */
    public String cli(String... args) throws IOException, InterruptedException {
        String[] all = new String[args.length + 2];
        all[0] = "-H";
        all[1] = host;
        System.arraycopy(args, 0, all, 2, args.length);
        return DockerCli.run(all);
    }

    /**
     * Starts a labelled stress container that sleeps, without a network (the second engine has no bridge of use),
     * its memory and memory+swap limited to {@code memoryLimitBytes}; returns its ID.
     */
    public String startStress(long memoryLimitBytes) throws IOException, InterruptedException {
        return cli("run", "-d", "--network", "none", "--memory", Long.toString(memoryLimitBytes), "--memory-swap",
                Long.toString(memoryLimitBytes), "--label", "io.vitals.managed=true", StressContainer.IMAGE, "sleep",
                "infinity").strip();
    }

    /** Runs a bash script in the container and returns its standard output; fails on a non-zero exit. */
    public String exec(String containerId, String script) throws IOException, InterruptedException {
        return cli("exec", containerId, "bash", "-c", script);
    }

    /** The probe's target for a stress container on this engine: its ID, host PID and memory limit. */
    public ContainerTarget targetOf(String containerId) throws IOException, InterruptedException {
        String[] inspected = cli("inspect", "--format", "{{.Id}} {{.State.Pid}} {{.HostConfig.Memory}}",
                containerId).strip().split(" ");
        long memory = Long.parseLong(inspected[2]);
        return new ContainerTarget(inspected[0], "stress", StressContainer.IMAGE, Long.parseLong(inspected[1]),
                memory > 0 ? OptionalLong.of(memory) : OptionalLong.empty());
    }
}
