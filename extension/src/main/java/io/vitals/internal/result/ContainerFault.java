package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * Something that happened to a container while a test ran.
 *
 * @param kind what happened
 * @param exitCode the container's exit code, if it exited
 * @param at when in the test it was noticed
 * @param lastSeen for {@link Kind#ENGINE_GONE}: when in the test the engine last answered; empty when it was not
 *     seen answering during the test, and for the other kinds
 * @param description a sentence for people, e.g. "container 'tf' was OOM-killed at 12.4 s: limit 512.0 MiB,
 *     peak 512.0 MiB"
 */
@API(status = INTERNAL, since = "0.1")
public record ContainerFault(Kind kind, OptionalLong exitCode, Optional<Duration> at, Optional<Duration> lastSeen,
        String description) {

    /** A fault that says nothing about when the engine was last seen: an OOM kill or an exit. */
    public ContainerFault(Kind kind, OptionalLong exitCode, Optional<Duration> at, String description) {
        this(kind, exitCode, at, Optional.empty(), description);
    }

    /**
     * Whether the test's window was cut short: the container stopped, or the engine stopped answering (the figures
     * then cover the test only up to {@link #at}, or are of a container nobody can reach any more). An OOM kill
     * of one process leaves the container, and its window, running.
     */
    public boolean partialWindow() {
        return kind != Kind.OOM_KILL;
    }

    /** Kinds of fault. */
    public enum Kind {
        /** The kernel's OOM killer killed a process in the container (the container may still run). */
        OOM_KILL,
        /** The container stopped while the test ran. */
        EXITED,
        /**
         * The Docker engine stopped answering while the test ran (its daemon died or was stopped): the container
         * may even run on (its shim keeps it alive), but nothing can inspect, stop or remove it through that engine.
         */
        ENGINE_GONE
    }
}
