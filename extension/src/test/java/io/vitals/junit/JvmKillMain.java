package io.vitals.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.testing.StressContainer;

import java.util.Map;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.junit.jupiter.Container;

/**
 * Runs {@link Fixture} with the history and baseline updates on, as a build on {@code main} does; {@link
 * JvmKilledMidRunIT} kills this JVM (SIGKILL) at some moment of that run. Prints {@code STARTED} once the JVM runs
 * and {@code TESTS FAILED <n>} at the end. Arguments: the report directory, the history file, the baseline file and
 * the label value the container carries.
 */
public final class JvmKillMain {

    /** The label every container of the fixture carries, with the run's value: what the IT removes afterwards. */
    static final String LABEL = "io.vitals.jvm-kill";

    private JvmKillMain() {
    }

    public static void main(String[] args) {
        System.out.println("STARTED");
        System.out.flush();
        System.setProperty("jvm.kill.label", args[3]);
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of("vitals.console", "off", "vitals.reportDir", args[0],
                        "vitals.history", args[1], "vitals.history.update", "true",
                        "vitals.baseline", args[2], "vitals.baseline.update", "true", "vitals.baseline.mode", "warn"))
                .selectors(selectClass(Fixture.class)).execute();
        System.out.println("TESTS FAILED " + results.testEvents().failed().count());
        System.out.flush();
        System.exit(0); // as a test JVM ends: Testcontainers' non-daemon threads must not keep it alive
    }

    /** Three short tests on one container: a kill lands in a test, between two, or while the files are written. */
    @MeasureResources
    @ResourceBudget(container = "stress", peakMemory = "1GiB")
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class Fixture {

        @Container
        static final StressContainer stress = new StressContainer().withNetworkMode("none")
                .withLabel(LABEL, System.getProperty("jvm.kill.label", "unset"));

        @Test
        @Order(1)
        void allocates() throws Exception {
            stress.sh("dd if=/dev/zero bs=32M count=1 iflag=fullblock 2>/dev/null | sleep 0.3");
        }

        @Test
        @Order(2)
        void burns() throws Exception {
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 300 --quiet");
        }

        @Test
        @Order(3)
        void writes() throws Exception {
            stress.sh("dd if=/dev/zero of=/tmp/f bs=1M count=8 conv=fsync 2>/dev/null; rm /tmp/f");
        }
    }
}
