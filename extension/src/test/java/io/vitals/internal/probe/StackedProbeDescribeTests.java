package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ProbeKind;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StackedProbeDescribeTests {

    private static final ContainerTarget TARGET = new ContainerTarget("id", "tf", "image", 1, OptionalLong.empty());

    @Test
    @DisplayName("the probe line names a further source only once it gave figures: no 'with nvidia-smi' without one")
    void namesOnlyAnsweredSources() {
        assertThat(new StackedProbe(new Base(), TARGET, List.of(new Source("nvidia-smi", false))).describe())
                .isEqualTo("host cgroup v2").doesNotContain("with");
        assertThat(new StackedProbe(new Base(), TARGET, List.of(new Source("nvidia-smi", true))).describe())
                .isEqualTo("host cgroup v2, with nvidia-smi");
        assertThat(new StackedProbe(new Base(), TARGET, List.of(new Source("a", false), new Source("b", true)))
                .describe()).isEqualTo("host cgroup v2, with b");
    }

    private record Source(String name, boolean answered) implements ReadingSource {
        @Override
        public List<ExtraKey<?>> keys() {
            return List.of(ExtraKey.of("k-" + name, String.class));
        }

        @Override
        public void contribute(ContainerTarget target, RawReading.Builder reading) {
        }
    }

    private static final class Base implements ResourceProbe {
        @Override
        public ProbeKind kind() {
            return ProbeKind.HOST_CGROUP_V2;
        }

        @Override
        public RawReading read() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean resetHighWaterMark() {
            return false;
        }

        @Override
        public HostShape hostShape() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Duration minimumInterval() {
            return Duration.ofMillis(10);
        }

        @Override
        public String describe() {
            return "host cgroup v2";
        }

        @Override
        public void close() {
        }
    }
}
