package io.vitals.internal.report;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Something that happened to a container while a test ran.
 *
 * @param kind what happened
 * @param exitCode the container's exit code, if it exited
 * @param at when in the test it was noticed
 * @param description a sentence for people, e.g. "container 'tf' was OOM-killed at 12.4 s: limit 512.0 MiB,
 *     peak 512.0 MiB"
 */
public record ContainerFault(Kind kind, OptionalLong exitCode, Optional<Duration> at, String description) {

    /** Kinds of fault. */
    public enum Kind {
        /** The kernel's OOM killer killed a process in the container (the container may still run). */
        OOM_KILL,
        /** The container stopped while the test ran. */
        EXITED
    }
}
