package io.vitals.internal.agent;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.HostCgroupProbe;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;

import org.apiguardian.api.API;

/**
 * The Vitals agent's entry point, run by the JVM inside the agent container ({@code java -cp /vitals/vitals.jar
 * io.vitals.internal.agent.AgentMain /host-cgroup /proc [reset-peaks]}). The container runs with
 * {@code --pid=host} and {@code --cgroupns=host}, so {@code /proc} is the host's and the cgroup paths it names are
 * the host's; the host's cgroup tree is bind-mounted at the path given as the first argument: read-only, unless
 * {@code reset-peaks} is given (and then writable, for the high-water marks alone). Requests come on stdin and
 * answers go to stdout ({@link AgentProtocol}); everything else goes to stderr, so that nothing but answers is ever
 * written to stdout.
 *
 * <p>Only the JDK and the probe package are used here: nothing of JUnit, Testcontainers or Jackson is loaded, so
 * the container needs Vitals' jar alone.
 */
@API(status = INTERNAL, since = "0.1")
public final class AgentMain {

    /** The third argument that lets the agent reset high-water marks; without it, it writes nothing. */
    static final String RESET_PEAKS = "reset-peaks";

    private AgentMain() {
    }

    public static void main(String[] args) throws IOException {
        Path cgroupMount = Path.of(args.length > 0 ? args[0] : "/host-cgroup");
        Path procRoot = Path.of(args.length > 1 ? args[1] : "/proc");
        boolean resetPeaks = args.length > 2 && args[2].equals(RESET_PEAKS);
        // stdout carries the protocol alone: whatever else prints (a library, the JVM) goes to stderr
        FileOutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
        CgroupLocator locator = CgroupLocator.mountedAt(Path.of("/"), cgroupMount);
        Clock clock = Clock.systemUTC();
        AgentServer server = new AgentServer((name, pid) -> HostCgroupProbe.open(name, pid, locator, procRoot,
                clock), resetPeaks);
        System.err.println("vitals agent: serving, host cgroups at " + cgroupMount
                + (resetPeaks ? ", resetting high-water marks per window" : ", writing nothing"));
        server.serve(new BufferedInputStream(new FileInputStream(FileDescriptor.in)),
                new BufferedOutputStream(stdout, 8192));
        System.err.println("vitals agent: input closed, exiting");
    }
}
