package io.vitals.internal.report.run;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;

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

    // Surefire and Failsafe start a fork either through a manifest-only jar named surefirebooter*.jar (the default)
    // or with this main class on the command line (useManifestOnlyJar=false); the java command line names one of them.
    // Maven's own JVM never does, so forkCount=0 (tests inside Maven) is a JVM alone.
    private static final String SUREFIRE_BOOTER = "org.apache.maven.surefire.booter.ForkedBooter";
    private static final String SUREFIRE_BOOTER_JAR = "surefirebooter";

    /** The identity of this JVM's run. */
    public static RunIdentity current(Optional<String> runId) {
        return of(runId, System.getProperty("sun.java.command", ""), ProcessHandle.current());
    }

    static RunIdentity of(Optional<String> runId, String javaCommand, ProcessHandle self) {
        if (runId.isPresent()) {
            return new RunIdentity("id:" + runId.get(), MeasureResources.RUN_ID_KEY + "=" + runId.get());
        }
        if (isSurefireFork(javaCommand)) {
            Optional<ProcessHandle> build = buildJvm(self);
            Optional<Instant> started = build.flatMap(p -> p.info().startInstant());
            if (build.isPresent() && started.isPresent()) {
                return new RunIdentity("build:" + build.get().pid() + "@" + started.get().toEpochMilli(),
                        "the forks of the Maven build in process " + build.get().pid());
            }
        }
        return new RunIdentity("jvm:" + jvmKey(self), "this JVM alone (process " + self.pid() + ")");
    }

    /** A run of its own: no other session joins it. */
    public static RunIdentity solo() {
        String key = java.util.UUID.randomUUID().toString();
        return new RunIdentity("solo:" + key, "a run of its own");
    }

    /**
     * The JVM that started this fork: its nearest ancestor that is a {@code java} process. On Unix Surefire starts each
     * fork through its own {@code /bin/sh -c}, so the parent itself differs from fork to fork.
     */
    static Optional<ProcessHandle> buildJvm(ProcessHandle self) {
        Optional<ProcessHandle> ancestor = self.parent();
        for (int depth = 0; depth < 4 && ancestor.isPresent(); depth++) {
            String command = ancestor.get().info().command().map(c -> java.nio.file.Path.of(c).getFileName()
                    .toString()).orElse("");
            if (command.equals("java") || command.equals("java.exe")) {
                return ancestor;
            }
            ancestor = ancestor.get().parent();
        }
        return Optional.empty();
    }

    static boolean isSurefireFork(String javaCommand) {
        String main = javaCommand.split(" ", 2)[0];
        return main.equals(SUREFIRE_BOOTER) || main.endsWith(".jar")
                && java.nio.file.Path.of(main).getFileName().toString().startsWith(SUREFIRE_BOOTER_JAR);
    }

    /** "pid@startMillis": a process, told apart from a later one that got the same id. */
    static String jvmKey(ProcessHandle process) {
        return process.pid() + "@" + process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }
}
