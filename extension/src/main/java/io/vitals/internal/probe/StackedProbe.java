package io.vitals.internal.probe;

import io.vitals.ProbeKind;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A base probe with further {@link ReadingSource}s stacked on it: each full read takes the base reading and lets
 * every source add its groups. Only opened where there are sources, so a container without them is read by its
 * base probe alone, at no extra cost.
 *
 * <p>A source never costs the base reading: whatever it throws, its groups are marked unavailable for that sample
 * with the reason, and the reading goes on. Failures of the base probe (the container gone) propagate as before.
 */
final class StackedProbe implements ResourceProbe {

    private static final Logger LOG = LoggerFactory.getLogger(StackedProbe.class);

    private final ResourceProbe base;
    private final ContainerTarget target;
    private final List<ReadingSource> sources;

    StackedProbe(ResourceProbe base, ContainerTarget target, List<ReadingSource> sources) {
        this.base = Objects.requireNonNull(base, "base");
        this.target = Objects.requireNonNull(target, "target");
        this.sources = requireDistinctKeys(sources);
    }

    /**
     * {@code sources}, copied, once no two of them add the same group: one would overwrite the other's figures.
     * The factory checks when it is made, so that a bad list fails before any probe opens.
     */
    static List<ReadingSource> requireDistinctKeys(List<ReadingSource> sources) {
        List<ReadingSource> copy = List.copyOf(sources);
        Set<ExtraKey<?>> seen = new HashSet<>();
        for (ReadingSource source : copy) {
            for (ExtraKey<?> key : source.keys()) {
                if (!seen.add(key)) {
                    throw new IllegalArgumentException("two reading sources add '" + key.id() + "', so one would "
                            + "overwrite the other's figures (the second is " + source.name() + ")");
                }
            }
        }
        return copy;
    }

    @Override
    public ProbeKind kind() {
        return base.kind();
    }

    @Override
    public HostShape hostShape() {
        return base.hostShape();
    }

    @Override
    public RawReading read() throws ProbeException {
        return withSources(base.read());
    }

    /** The base probe's scheduled read (perhaps prefetched with its batch), with the sources read now. */
    @Override
    public RawReading readScheduled() throws ProbeException {
        return withSources(base.readScheduled());
    }

    private RawReading withSources(RawReading baseReading) {
        RawReading.Builder reading = baseReading.toBuilder();
        for (ReadingSource source : sources) {
            contribute(source, reading);
        }
        return reading.build();
    }

    private void contribute(ReadingSource source, RawReading.Builder reading) {
        try {
            source.contribute(target, reading);
        } catch (ProbeException | RuntimeException e) {
            LOG.debug("Source {} failed for container '{}'", source.name(), target.name(), e);
            String reason = source.name() + ": " + (e instanceof ProbeException ? e.getMessage() : e.toString());
            source.keys().forEach(key -> reading.unavailable(key, reason));
            return;
        }
        for (ExtraKey<?> key : source.keys()) {
            if (!reading.has(key)) {
                reading.unavailable(key, source.name() + " gave no " + key.id() + " figures");
            }
        }
    }

    /**
     * The base probe's fast read, with the sources' groups of {@code last} carried over: they are read again on
     * the next full read. A base probe whose fast read is a full one (the Engine API) would otherwise drop them.
     */
    @Override
    public RawReading readFast(RawReading last) throws ProbeException {
        return base.readFast(last).withExtras(last.extras());
    }

    @Override
    public Optional<String> goneNow() throws ProbeException {
        return base.goneNow();
    }

    @Override
    public boolean resetHighWaterMark() throws ProbeException {
        return base.resetHighWaterMark();
    }

    /** The base probe's: the sources' groups are carried over on fast reads, prefetched or not. */
    @Override
    public Optional<ReadBatch.Member> batchMember() {
        return base.batchMember();
    }

    @Override
    public Duration minimumInterval() {
        return base.minimumInterval();
    }

    @Override
    public String describe() {
        // only the sources that gave figures: one that found nothing to read (no GPU driver) was not used
        List<String> used = sources.stream().filter(ReadingSource::answered).map(ReadingSource::name).toList();
        return used.isEmpty() ? base.describe() : base.describe() + ", with " + String.join(", ", used);
    }

    /** Closes the base probe; the sources serve every container and are closed by whoever made them. */
    @Override
    public void close() {
        base.close();
    }
}
