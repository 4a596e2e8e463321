package io.vitals.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.testing.DockerCli;
import io.vitals.testing.StressContainer;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.junit.jupiter.Container;

/**
 * Runs {@link Fixture} in a JVM whose Testcontainers uses the second engine ({@code DOCKER_HOST}, set by
 * {@link EngineDeathIT}, which kills that engine's daemon while the test runs). Prints one line per fact: the test's
 * failure ({@code FAILED <class>: <first line>}, the rest of the message as {@code | } lines, then each cause as
 * {@code CAUSE <class>: <message>}), and the console table as Vitals prints it. Arguments: the report directory and
 * the label value the container carries.
 */
public final class EngineDeathMain {

    /** The label every container of the fixture carries, with the run's value: what the IT looks for afterwards. */
    static final String LABEL = "io.vitals.engine-death";
    static final String SECOND_ENGINE = "tcp://127.0.0.1:23750";
    /** How long the fixture's test would run if the engine stayed up. */
    static final Duration TEST_LENGTH = Duration.ofSeconds(20);

    private EngineDeathMain() {
    }

    public static void main(String[] args) {
        System.setProperty("engine.death.label", args[1]);
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("vitals.console", "table")
                .configurationParameter("vitals.reportDir", args[0])
                .selectors(selectClass(Fixture.class)).execute();
        results.allEvents().failed().stream().forEach(event -> {
            Optional<Throwable> thrown = event.getPayload(TestExecutionResult.class)
                    .flatMap(TestExecutionResult::getThrowable);
            thrown.ifPresent(t -> {
                String[] lines = String.valueOf(t.getMessage()).split("\\R");
                System.out.println("FAILED " + t.getClass().getName() + ": " + lines[0]);
                for (int i = 1; i < lines.length; i++) {
                    System.out.println("| " + lines[i]);
                }
                for (Throwable cause = t.getCause(); cause != null; cause = cause.getCause()) {
                    System.out.println("CAUSE " + cause.getClass().getName() + ": " + cause.getMessage());
                }
            });
        });
        System.out.println("TESTS FAILED " + results.testEvents().failed().count());
        System.out.flush();
        System.exit(0); // a Testcontainers thread left waiting on the dead engine must not keep the JVM alive
    }

    @MeasureResources
    @ResourceBudget(container = "stress", peakMemory = "1GiB")
    static class Fixture {

        @Container
        static final StressContainer stress = new StressContainer().withNetworkMode("none")
                .withLabel(LABEL, System.getProperty("engine.death.label", "unset"));

        /** Drives its container through the engine every 250 ms, as a test that execs into it would. */
        @Test
        void drivesTheContainer() throws Exception {
            System.out.println("TEST STARTED " + stress.getContainerId());
            System.out.flush();
            long end = System.nanoTime() + TEST_LENGTH.toNanos();
            while (System.nanoTime() < end) {
                stress.sh("true");
                Thread.sleep(250);
            }
        }

        /**
         * Waits (up to 60 s) until the IT has restarted the engine, as a run whose engine comes back before the class
         * ends: Vitals then removes the container Testcontainers could not stop.
         */
        @AfterAll
        static void engineIsBack() throws Exception {
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < end) {
                try {
                    DockerCli.run("-H", SECOND_ENGINE, "version", "--format", "{{.Server.Version}}");
                    System.out.println("ENGINE BACK");
                    return;
                } catch (java.io.IOException e) {
                    Thread.sleep(500);
                }
            }
            System.out.println("ENGINE NOT BACK");
        }
    }
}
