package io.vitals.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.testing.StressContainer;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.testcontainers.junit.jupiter.Container;

/**
 * Runs a fixture class in a JVM whose Docker engine cannot be reached or is misconfigured (started by
 * {@link DockerMissingIT} and its neighbours), and prints how the class ended, one line per fact. Arguments: the
 * value of {@code vitals.requireDocker} ({@value #DEFAULT} leaves it unset), and the report directory.
 */
public final class DockerMissingMain {

    /** The first argument that leaves {@code vitals.requireDocker} unset. */
    static final String DEFAULT = "default";

    private DockerMissingMain() {
    }

    public static void main(String[] args) {
        EngineTestKit.Builder kit = EngineTestKit.engine("junit-jupiter");
        if (!DEFAULT.equals(args[0])) {
            kit.configurationParameter("vitals.requireDocker", args[0]);
        }
        EngineExecutionResults results = kit
                .configurationParameter("vitals.console", "off")
                .configurationParameter("vitals.reportDir", args[1])
                .selectors(selectClass(Fixture.class)).execute();
        results.containerEvents().skipped().stream().forEach(event -> System.out.println("SKIPPED "
                + event.getPayload(String.class).orElse("")));
        results.containerEvents().failed().stream().map(Event::getPayload).forEach(payload -> System.out.println(
                "FAILED " + payload.flatMap(p -> ((org.junit.platform.engine.TestExecutionResult) p).getThrowable())
                        .map(t -> t.getClass().getName() + ": " + t.getMessage()).orElse("")));
        System.out.println("TESTS STARTED " + results.testEvents().started().count());
    }

    @MeasureResources
    static class Fixture {

        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        void test() {
        }
    }
}
