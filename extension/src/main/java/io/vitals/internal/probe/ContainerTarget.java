package io.vitals.internal.probe;

import java.util.OptionalLong;

/**
 * A running container to be probed, as {@code docker inspect} describes it.
 *
 * @param id the full container ID
 * @param name the name it has in the test (its field name)
 * @param image the image it runs
 * @param hostPid the PID of its init process on the engine's host
 * @param memoryLimit its memory limit, empty when it has none
 */
public record ContainerTarget(String id, String name, String image, long hostPid, OptionalLong memoryLimit) {
}
