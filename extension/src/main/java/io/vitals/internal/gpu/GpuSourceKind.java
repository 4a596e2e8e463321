package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.probe.ReadingSource;
import io.vitals.internal.probe.SavedFigures;
import io.vitals.internal.probe.SourceKind;
import io.vitals.internal.probe.WindowSummary;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * GPU figures as one {@link SourceKind kind of source}: the sources of {@link GpuSources}, summed up per window by
 * {@link GpuWindow}. Registered in {@code META-INF/services/io.vitals.internal.probe.SourceKind}, so no class
 * outside this package names it.
 */
@API(status = INTERNAL, since = "0.1")
public final class GpuSourceKind implements SourceKind {

    /** For {@link java.util.ServiceLoader}. */
    public GpuSourceKind() {
    }

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public List<ReadingSource> sources(Function<String, Optional<String>> config) {
        return GpuSources.from(config);
    }

    @Override
    public WindowSummary newWindow() {
        return new GpuWindow();
    }

    @Override
    public ResourceUsage readBack(ResourceUsage usage, SavedFigures saved) {
        return usage.toBuilder().gpu(GpuWindow.readBack(saved)).build();
    }

    @Override
    public List<Lane> lanes(ResourceUsage usage) {
        return GpuWindow.lanes(usage.gpu());
    }
}
