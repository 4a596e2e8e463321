package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.HostConfig;

import java.lang.reflect.Proxy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;

@DisplayName("Limits")
class LimitsTests {

    @Test
    @DisplayName("sets memory (swap off) and CPUs on the create command, as docker run --memory --cpus does")
    void appliesToTheCreateCommand() {
        GenericContainer<?> container = new GenericContainer<>("vitals/stress:latest");

        GenericContainer<?> same = Limits.none().memory("512MiB").cpus(1.5).applyTo(container);

        HostConfig host = create(container);
        assertThat(same).isSameAs(container);
        assertThat(host.getMemory()).isEqualTo(512L * 1024 * 1024);
        assertThat(host.getMemorySwap()).isEqualTo(512L * 1024 * 1024);
        assertThat(host.getNanoCPUs()).isEqualTo(1_500_000_000L);
    }

    @Test
    @DisplayName("reads sizes as docker does: 512MB is 512 MiB")
    void dockerUnits() {
        assertThat(Limits.none().memory("512MB").memory()).contains(DataSize.ofMiB(512));
        assertThat(Limits.none().memory("2g").memory()).contains(DataSize.ofGiB(2));
    }

    @Test
    @DisplayName("is immutable: each method returns a new value, none() sets nothing")
    void immutable() {
        Limits none = Limits.none();
        Limits memory = none.memory("1GiB");
        Limits both = memory.cpus(2);

        assertThat(none.memory()).isEmpty();
        assertThat(none.cpus()).isEmpty();
        assertThat(memory.cpus()).isEmpty();
        assertThat(both.memory()).contains(DataSize.ofGiB(1));
        assertThat(both.cpus()).hasValue(2.0);
        assertThat(both).isEqualTo(Limits.none().cpus(2).memory("1GiB")).hasSameHashCodeAs(
                Limits.none().cpus(2).memory("1GiB"));
        assertThat(both).hasToString("memory 1.0 GiB (no swap), cpus 2.0");
        assertThat(none).hasToString("no limits");

        GenericContainer<?> container = new GenericContainer<>("vitals/stress:latest");
        none.applyTo(container);
        assertThat(create(container).getMemory()).isNull();
    }

    @Test
    @DisplayName("rejects what docker would refuse, naming the value")
    void rejectsBadValues() {
        assertThatIllegalArgumentException().isThrownBy(() -> Limits.none().memory("4MiB"))
                .withMessage("Memory limit 4.0 MiB is below docker's minimum of 6.0 MiB");
        assertThatIllegalArgumentException().isThrownBy(() -> Limits.none().cpus(0))
                .withMessage("CPU limit must be a positive number of cores, e.g. 1.5: 0.0");
        assertThatIllegalArgumentException().isThrownBy(() -> Limits.none().cpus(Double.NaN))
                .withMessageContaining("NaN");
        assertThatIllegalArgumentException().isThrownBy(() -> Limits.none().memory("512 mb"))
                .withMessageStartingWith("Invalid data size '512 mb'");
    }

    /** Runs the container's create-command modifiers on a stand-in command, as Testcontainers does at start. */
    private static HostConfig create(GenericContainer<?> container) {
        HostConfig host = HostConfig.newHostConfig();
        CreateContainerCmd cmd = (CreateContainerCmd) Proxy.newProxyInstance(LimitsTests.class.getClassLoader(),
                new Class<?>[] { CreateContainerCmd.class }, (proxy, method, args) -> {
                    if (method.getName().equals("getHostConfig")) {
                        return host;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        container.getCreateContainerCmdModifiers().forEach(modifier -> modifier.modify(cmd));
        return host;
    }
}
