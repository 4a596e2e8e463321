package io.vitals.internal.report.run;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Instant;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Which run a test JVM belongs to: the JVMs of one run write one index, page, summary and history entry together
 * (see {@link RunLedger}).
 *
 * <p>How it is told, first match wins:
 * <ol>
 *   <li>{@code vitals.runId}, when set: every JVM given the same id is one run (Gradle's {@code maxParallelForks},
 *       or any launcher that forks on its own, sets it; see docs/ci.md);</li>
 *   <li>a Surefire or Failsafe fork: its parent process, the Maven JVM (its process id and start instant), so every
 *       fork of one {@code mvn} invocation is one run, whatever {@code forkCount} and {@code reuseForks} say,
 *       and the next {@code mvn} is another;</li>
 *   <li>anything else (the IDE, the console launcher, Maven without forks): this JVM alone.</li>
 * </ol>
 * Why not the parent process everywhere: an IDE or a Gradle daemon outlives many runs, so its children are not one
 * run; Surefire's forked booter lives exactly as long as one build.
 *
 * @param key the identity as stored in the ledger
 * @param description how it was told, for messages
 */
@API(status = INTERNAL, since = "0.1")
public record RunIdentity(String key, String description) {

    // Surefire and Failsafe start their forks with this main class, named in the java command line
    private static final String SUREFIRE_BOOTER = "org.apache.maven.surefire.booter.ForkedBooter";

    /** The identity of this JVM's run. */
    public static RunIdentity current(Optional<String> runId) {
        return of(runId, System.getProperty("sun.java.command", ""), ProcessHandle.current());
    }

    static RunIdentity of(Optional<String> runId, String javaCommand, ProcessHandle self) {
        if (runId.isPresent()) {
            return new RunIdentity("id:" + runId.get(), "vitals.runId=" + runId.get());
        }
        if (javaCommand.startsWith(SUREFIRE_BOOTER)) {
            Optional<ProcessHandle> parent = self.parent();
            Optional<Instant> started = parent.flatMap(p -> p.info().startInstant());
            if (parent.isPresent() && started.isPresent()) {
                return new RunIdentity("build:" + parent.get().pid() + "@" + started.get().toEpochMilli(),
                        "the forks of the Maven build in process " + parent.get().pid());
            }
        }
        return new RunIdentity("jvm:" + jvmKey(self), "this JVM alone (process " + self.pid() + ")");
    }

    /** A run of its own: no other session joins it. */
    public static RunIdentity solo() {
        String key = java.util.UUID.randomUUID().toString();
        return new RunIdentity("solo:" + key, "a run of its own");
    }

    /** "pid@startMillis": a process, told apart from a later one that got the same id. */
    static String jvmKey(ProcessHandle process) {
        return process.pid() + "@" + process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }
}
