package io.vitals.internal.report.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RunIdentityTests {

    private static final ProcessHandle SELF = ProcessHandle.current();

    @Test
    @DisplayName("vitals.runId names the run, whatever started the JVM")
    void explicitId() {
        assertThat(RunIdentity.of(Optional.of("ci-4711"), "anything", SELF).key()).isEqualTo("id:ci-4711");
    }

    @Test
    @DisplayName("a Surefire or Failsafe fork belongs to the Maven JVM that started it")
    void surefireFork() {
        // these tests run in a Surefire fork, started by Maven's JVM through a shell
        String parent = "build:" + RunIdentity.buildJvm(SELF).orElseThrow().pid() + "@";
        // the default: a manifest-only jar in target/surefire
        assertThat(RunIdentity.of(Optional.empty(), "/work/p/target/surefire/surefirebooter-20261202060245_3.jar "
                + "/work/p/target/surefire 2026-12-02T06-02-45_123-jvmRun1 surefire-1.tmp", SELF).key())
                .startsWith(parent);
        // useManifestOnlyJar=false
        assertThat(RunIdentity.of(Optional.empty(), "org.apache.maven.surefire.booter.ForkedBooter /tmp x y", SELF)
                .key()).startsWith(parent);
    }

    @Test
    @DisplayName("Maven without forks, the IDE and the console launcher: the JVM is a run of its own")
    void aloneOtherwise() {
        for (String command : new String[] {"org.codehaus.plexus.classworlds.launcher.Launcher verify",
                "com.intellij.rt.junit.JUnitStarter -ideVersion5 -junit5 a.B",
                "/opt/junit-platform-console-standalone.jar execute --select-class a.B",
                "worker.org.gradle.process.internal.worker.GradleWorkerMain 'Gradle Test Executor 1'", ""}) {
            assertThat(RunIdentity.of(Optional.empty(), command, SELF).key()).as(command)
                    .isEqualTo("jvm:" + RunIdentity.jvmKey(SELF));
        }
    }
}
