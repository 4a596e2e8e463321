package io.vitals.internal.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.MeasureResources;
import io.vitals.internal.probe.SourceKind;
import io.vitals.internal.settings.InvalidSettingException;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SourceKinds")
class SourceKindsTests {

    @Test
    @DisplayName("lists every kind once, by name")
    void listsEveryKind() {
        assertThat(SourceKinds.ALL).extracting(SourceKind::name).containsExactly("gpu").doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("gives every window a summary of every kind, fresh each time")
    void freshSummaries() {
        assertThat(SourceKinds.newWindows()).hasSameSizeAs(SourceKinds.ALL);
        assertThat(SourceKinds.newWindows().get(0)).isNotSameAs(SourceKinds.newWindows().get(0));
    }

    @Test
    @DisplayName("builds the sources from the settings: none where a kind is turned off")
    void sourcesFromSettings() {
        Map<String, String> off = Map.of(MeasureResources.GPU_KEY, "off");
        assertThat(SourceKinds.sources(key -> Optional.ofNullable(off.get(key)))).isEmpty();
        Map<String, String> auto = Map.of(MeasureResources.GPU_NVIDIA_SMI_KEY, "/nonexistent/nvidia-smi");
        assertThat(SourceKinds.sources(key -> Optional.ofNullable(auto.get(key)))).hasSize(1);
    }

    @Test
    @DisplayName("rejects a bad setting with the key in the message")
    void rejectsBadSetting() {
        Map<String, String> bad = Map.of(MeasureResources.GPU_KEY, "sometimes");
        assertThatThrownBy(() -> SourceKinds.sources(key -> Optional.ofNullable(bad.get(key))))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining(MeasureResources.GPU_KEY);
    }
}
