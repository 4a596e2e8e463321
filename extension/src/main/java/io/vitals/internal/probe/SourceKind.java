package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * One kind of further source of figures, described once: how the run-wide settings build its
 * {@link ReadingSource}s, and how its groups add up over a measurement window into the usage. Adding a source is
 * writing one of these, with a public no-argument constructor, and naming it in
 * {@code META-INF/services/io.vitals.internal.probe.SourceKind}; {@code io.vitals.internal.source.SourceKinds} finds
 * it there, and the runtime, the probe factory and the measurement window need no change.
 */
@API(status = INTERNAL, since = "0.1")
public interface SourceKind {

    /** A short name for messages ("gpu"). */
    String name();

    /**
     * The sources of this kind for the run-wide settings in {@code config}; empty where the settings turn it off.
     *
     * @throws io.vitals.internal.settings.InvalidSettingException naming the key and value when one is invalid
     */
    List<ReadingSource> sources(Function<String, Optional<String>> config);

    /**
     * A fresh summary for one measurement window. Every window gets one whether or not a source of this kind is
     * stacked, so that a usage says why its figures are missing ("not measured") rather than nothing.
     */
    WindowSummary newWindow();

    /**
     * {@code usage}, read back from a saved report with the base figures only, with this kind's figures as
     * {@code saved} holds them; a report from before the kind holds none, which reads as "not measured".
     */
    ResourceUsage readBack(ResourceUsage usage, SavedFigures saved);

    /**
     * The timelines this kind's figures in {@code usage} add to the reports (a chart each, and the JSON), oldest
     * sample first; none by default. {@link #readBack} gets them again from {@link SavedFigures#lane}.
     */
    default List<Lane> lanes(ResourceUsage usage) {
        return List.of();
    }
}
