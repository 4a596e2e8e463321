package io.vitals.internal.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.MeasureResources;
import io.vitals.internal.gpu.GpuSourceKind;
import io.vitals.internal.probe.SourceKind;
import io.vitals.internal.settings.InvalidSettingException;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.ReflectionSupport;

@DisplayName("SourceKinds")
class SourceKindsTests {

    @Test
    @DisplayName("lists every kind once, by name")
    void listsEveryKind() {
        assertThat(SourceKinds.ALL).extracting(SourceKind::name).containsExactly("gpu").doesNotHaveDuplicates();
        assertThat(SourceKinds.ALL).singleElement().isInstanceOf(GpuSourceKind.class);
    }

    @Test
    @DisplayName("finds every kind of source in the library through its services file")
    void everyKindIsRegistered() {
        // A kind left out of META-INF/services would build no sources and leave its figures "not measured".
        List<Class<?>> kinds = ReflectionSupport.findAllClassesInPackage("io.vitals",
                type -> SourceKind.class.isAssignableFrom(type) && !type.isInterface()
                        && !Modifier.isAbstract(type.getModifiers()) && inTheLibrary(type),
                name -> true);
        assertThat(kinds).isNotEmpty();
        List<Class<?>> registered = SourceKinds.ALL.stream().<Class<?>>map(SourceKind::getClass).toList();
        assertThat(registered).containsExactlyInAnyOrderElementsOf(kinds);
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

    // The library's own classes, not a test's stand-in kind.
    private static boolean inTheLibrary(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation()
                .equals(SourceKind.class.getProtectionDomain().getCodeSource().getLocation());
    }
}
