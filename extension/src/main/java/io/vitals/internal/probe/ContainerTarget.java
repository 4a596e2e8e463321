package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.github.dockerjava.api.command.InspectContainerResponse;
import org.apiguardian.api.API;

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
@API(status = INTERNAL, since = "0.1")
public record ContainerTarget(String id, String name, String image, long hostPid, OptionalLong memoryLimit) {

    /** The target {@code docker inspect} describes; a limit of 0 (docker's "none") reads as empty. */
    public static ContainerTarget of(String name, InspectContainerResponse info) {
        Long memory = info.getHostConfig() == null ? null : info.getHostConfig().getMemory();
        Long pid = info.getState().getPidLong();
        String image = info.getConfig() == null ? "?" : info.getConfig().getImage();
        return new ContainerTarget(info.getId(), name, image, pid == null ? 0 : pid,
                memory != null && memory > 0 ? OptionalLong.of(memory) : OptionalLong.empty());
    }
}
