package io.vitals.internal.junit;

import com.github.dockerjava.api.exception.NotFoundException;
import io.vitals.internal.junit.engine.EngineHeartbeat;
import io.vitals.internal.junit.engine.EnginePing;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.testcontainers.DockerClientFactory;

/**
 * Containers of tests whose engine stopped answering: Testcontainers cannot stop or remove them through a dead
 * engine (its attempt fails, and with Ryuk off nothing else will). When the engine answers again (restarted; with
 * live-restore off it has stopped its containers) they are removed at the end of the test class, or of the run;
 * those whose engine stays silent are listed with the command that removes them once it is back.
 */
final class StrandedContainers {

    /** A container left on an engine that went away during {@code test}. */
    record Stranded(String engine, String name, String containerId, String test) {

        String shortId() {
            return containerId.length() > 12 ? containerId.substring(0, 12) : containerId;
        }
    }

    private final List<Stranded> stranded = new ArrayList<>();

    synchronized void add(String engine, List<MeasuredContainer> containers, String test) {
        for (MeasuredContainer container : containers) {
            boolean known = stranded.stream().anyMatch(s -> s.containerId().equals(container.containerId()));
            if (!known) {
                stranded.add(new Stranded(engine, container.name(), container.containerId(), test));
            }
        }
    }

    synchronized List<Stranded> all() {
        return List.copyOf(stranded);
    }

    /**
     * Removes the stranded containers if their engine answers again, saying so on {@code out}; with {@code last}
     * (the run ends) says what remains and how to remove it.
     */
    synchronized void removeIfBack(EngineHeartbeat engine, PrintStream out, boolean last) {
        if (stranded.isEmpty()) {
            return;
        }
        boolean back = engine.ping(EngineHeartbeat.CONFIRM_TIMEOUT_MILLIS).map(EnginePing.Answer::ok).orElse(false);
        List<Stranded> left = new ArrayList<>();
        for (Stranded container : stranded) {
            Optional<String> failure = back ? remove(container) : Optional.of("the engine does not answer");
            if (failure.isEmpty()) {
                out.println("[vitals] removed container '" + container.name() + "' (" + container.shortId()
                        + ") of " + container.test() + ", left on the Docker engine " + container.engine()
                        + " when it stopped answering; it answers again");
            } else {
                left.add(container);
                if (last) {
                    out.println("[vitals] container '" + container.name() + "' (" + container.shortId() + ") of "
                            + container.test() + " remains on the Docker engine " + container.engine() + " ("
                            + failure.get() + "): once it answers, remove it with docker -H " + container.engine()
                            + " rm -f " + container.shortId());
                }
            }
        }
        stranded.clear();
        stranded.addAll(left);
    }

    /** Removes one container; empty when it is gone, else why not. */
    private static Optional<String> remove(Stranded container) {
        try {
            DockerClientFactory.lazyClient().removeContainerCmd(container.containerId()).withForce(true)
                    .withRemoveVolumes(true).exec();
            return Optional.empty();
        } catch (NotFoundException e) {
            return Optional.empty(); // removed already, by Testcontainers or by hand
        } catch (RuntimeException e) {
            return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
