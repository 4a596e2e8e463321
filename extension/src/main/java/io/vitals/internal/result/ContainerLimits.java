package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * The limits a container was started with, as docker inspect reports them.
 *
 * @param memory {@code --memory}
 * @param cpus {@code --cpus} (quota over period)
 * @param cpuset {@code --cpuset-cpus}
 * @param pids {@code --pids-limit}
 * @param gpus the GPUs it asked for, as {@code docker run --gpus} reads them: {@code all}, a count, or
 *     {@code device=0,1}; empty where it asked for none
 */
@API(status = INTERNAL, since = "0.1")
public record ContainerLimits(Optional<DataSize> memory, OptionalDouble cpus, Optional<String> cpuset,
        OptionalLong pids, Optional<String> gpus) {

    /** Limits without a GPU request. */
    public ContainerLimits(Optional<DataSize> memory, OptionalDouble cpus, Optional<String> cpuset, OptionalLong pids) {
        this(memory, cpus, cpuset, pids, Optional.empty());
    }

    public static ContainerLimits none() {
        return new ContainerLimits(Optional.empty(), OptionalDouble.empty(), Optional.empty(), OptionalLong.empty());
    }
}
