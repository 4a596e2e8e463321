package io.vitals.internal.source;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.probe.ReadingSource;
import io.vitals.internal.probe.SourceKind;
import io.vitals.internal.probe.WindowSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * Every kind of further source Vitals knows: the runtime builds the sources from here, and every measurement window
 * summarises every kind's groups from here. A kind registers itself, as JUnit's engines and extensions do, with a
 * line in {@code META-INF/services/io.vitals.internal.probe.SourceKind} beside its own classes; nothing here names
 * one, so adding a source changes no file outside it. {@code SourceKindsTests} fails when a kind in the library is
 * not registered, which would otherwise leave its figures silently "not measured".
 */
@API(status = INTERNAL, since = "0.1")
public final class SourceKinds {

    /** The kinds, in the order {@link ServiceLoader} finds them, which is the order their sources stack on a probe. */
    public static final List<SourceKind> ALL = load();

    private SourceKinds() {
    }

    // One instance per class: a jar on the class path twice lists its services twice.
    private static List<SourceKind> load() {
        Map<Class<?>, SourceKind> kinds = new LinkedHashMap<>();
        for (SourceKind kind : ServiceLoader.load(SourceKind.class, SourceKinds.class.getClassLoader())) {
            kinds.putIfAbsent(kind.getClass(), kind);
        }
        return List.copyOf(kinds.values());
    }

    /** The lanes every kind adds for {@code usage} (see {@link SourceKind#lanes}), in the order of {@link #ALL}. */
    public static List<Lane> lanes(ResourceUsage usage) {
        List<Lane> lanes = new ArrayList<>();
        ALL.forEach(kind -> lanes.addAll(kind.lanes(usage)));
        return lanes;
    }

    /**
     * The sources of every kind for the run-wide settings in {@code config}, in the order of {@link #ALL}.
     *
     * @throws io.vitals.internal.settings.InvalidSettingException naming the key and value when one is invalid
     */
    public static List<ReadingSource> sources(Function<String, Optional<String>> config) {
        List<ReadingSource> sources = new ArrayList<>();
        ALL.forEach(kind -> sources.addAll(kind.sources(config)));
        return List.copyOf(sources);
    }

    /** A fresh summary of every kind for one measurement window. */
    public static List<WindowSummary> newWindows() {
        return ALL.stream().map(SourceKind::newWindow).toList();
    }
}
