package io.vitals.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;

import java.lang.reflect.Proxy;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the container asks of the engine, checked on the create command without an engine or a GPU. */
class TensorFlowContainerTests {

    private static List<DeviceRequest> deviceRequests(TensorFlowContainer container) {
        HostConfig host = new HostConfig();
        // only the host config matters here; docker-java's own command class is shaded inside Testcontainers
        CreateContainerCmd cmd = (CreateContainerCmd) Proxy.newProxyInstance(CreateContainerCmd.class.getClassLoader(),
                new Class<?>[] {CreateContainerCmd.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getHostConfig")) {
                        return host;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        container.getCreateContainerCmdModifiers().forEach(modifier -> modifier.modify(cmd));
        return cmd.getHostConfig().getDeviceRequests();
    }

    @Test
    @DisplayName("withGpus(\"all\") asks for every GPU: count -1 with the gpu capability")
    void all() {
        assertThat(deviceRequests(new TensorFlowContainer("img").withGpus("all"))).singleElement()
                .satisfies(r -> {
                    assertThat(r.getCount()).isEqualTo(-1);
                    assertThat(r.getCapabilities()).containsExactly(List.of("gpu"));
                });
    }

    @Test
    @DisplayName("withGpus(2) asks for two GPUs")
    void count() {
        assertThat(deviceRequests(new TensorFlowContainer("img").withGpus(2))).singleElement()
                .satisfies(r -> assertThat(r.getCount()).isEqualTo(2));
    }

    @Test
    @DisplayName("withGpus(ids...) asks for those devices")
    void ids() {
        assertThat(deviceRequests(new TensorFlowContainer("img").withGpus("0", "GPU-5f1c2d3e"))).singleElement()
                .satisfies(r -> assertThat(r.getDeviceIds()).containsExactly("0", "GPU-5f1c2d3e"));
    }

    @Test
    @DisplayName("no GPU request unless asked, and memory growth on by default")
    void defaults() {
        TensorFlowContainer container = new TensorFlowContainer("img");
        assertThat(deviceRequests(container)).isNull();
        assertThat(container.getEnvMap()).containsEntry(TensorFlowContainer.ALLOW_GROWTH_ENV, "true");
    }

    @Test
    @DisplayName("bad requests fail naming the value")
    void bad() {
        assertThatThrownBy(() -> new TensorFlowContainer("img").withGpus(0))
                .hasMessage("GPU count must be at least 1: 0");
        assertThatThrownBy(() -> new TensorFlowContainer("img").withGpus("some"))
                .hasMessage("Invalid GPU request 'some': expected all, a count such as 2, or device=0,1");
    }
}
