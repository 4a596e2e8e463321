package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.DeviceRequest;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ContainerWatchesTests {

    private static DeviceRequest gpu() {
        return new DeviceRequest().withDriver("nvidia").withCapabilities(List.of(List.of("gpu")));
    }

    @Test
    @DisplayName("the GPU request reads as docker run --gpus takes it: all, a count, device=IDs; none without one")
    void gpuRequest() {
        assertThat(ContainerWatches.gpusOf(List.of(gpu().withCount(-1)))).hasValue("all");
        assertThat(ContainerWatches.gpusOf(List.of(gpu().withCount(2)))).hasValue("2");
        assertThat(ContainerWatches.gpusOf(List.of(gpu().withDeviceIds(List.of("0", "GPU-5f1c")))))
                .hasValue("device=0,GPU-5f1c");
        assertThat(ContainerWatches.gpusOf(List.of(new DeviceRequest().withCapabilities(List.of(List.of("tpu")))
                .withCount(1)))).isEmpty();
        assertThat(ContainerWatches.gpusOf(null)).isEmpty();
        assertThat(ContainerWatches.gpusOf(List.of())).isEmpty();
    }
}
