package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.internal.units.DurationParser;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * The peak's composition in words, from the {@link Aggregation#AT_PEAK} figures: "at 1.5 GiB (2.1 s): anonymous
 * memory 1.2 GiB, page cache 300.0 MiB, shared memory 0 B, kernel memory 12.0 MiB". The reading it names is the one
 * with the highest working set among those whose memory.stat was read, which the sampler reads again at each new
 * high, so it is the peak or within 1/64 of it; the words say which working set it was.
 */
@API(status = INTERNAL, since = "0.1")
public final class PeakComposition {

    private static final String AT_THE_PEAK = " at the peak";

    private PeakComposition() {
    }

    /** The composition in words, empty where the host read none of its parts. */
    public static Optional<String> describe(ResourceUsage usage) {
        List<Metric> parts = Metric.atPeak();
        if (parts.isEmpty() || parts.stream().allMatch(m -> m.value(usage).isEmpty())) {
            return Optional.empty();
        }
        String where = SourcedFigures.of(usage).atPeak()
                .map(p -> "at " + DataSize.ofBytes(p.workingSetBytes()) + " (" + DurationParser.format(p.offset())
                        + ")")
                .orElse("at the peak");
        return Optional.of(where + ": " + parts.stream().map(m -> part(m, usage)).collect(Collectors.joining(", ")));
    }

    private static String part(Metric metric, ResourceUsage usage) {
        String name = metric.label().endsWith(AT_THE_PEAK)
                ? metric.label().substring(0, metric.label().length() - AT_THE_PEAK.length()) : metric.label();
        return name + " " + metric.value(usage).stream().mapToObj(metric::format).findFirst().orElse("not measured");
    }
}
