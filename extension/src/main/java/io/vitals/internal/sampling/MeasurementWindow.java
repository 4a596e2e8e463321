package io.vitals.internal.sampling;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.WindowSummary;
import io.vitals.internal.source.SourceKinds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.apiguardian.api.API;

/**
 * What one test (or one phase) sees of one container: a reading at the start, the sampler's readings while it is
 * open, and a reading at the end. Readings arrive from the sampler thread and the test thread; all state is
 * guarded by this object's lock.
 */
@API(status = INTERNAL, since = "0.1")
public final class MeasurementWindow {

    /** Points kept before compaction: 4096 samples are about 3.4 minutes at 50 ms. */
    static final int MAX_POINTS = 4096;

    private final ContainerWatch watch;
    private final WindowOwner owner;
    // the other tests whose windows on this container were open at some time during this one's; written by the
    // watch (under its lock) when a window opens, so never under this window's lock, and read after closing
    private final CopyOnWriteArrayList<WindowOwner> overlappedWith = new CopyOnWriteArrayList<>();
    private final RawReading start;
    private final boolean highWaterMarkReset;
    private final boolean fromContainerStart;
    private final TimelineRecorder recorder;
    // what the further sources (GPU) add to the readings, summed up into the usage by each source's own rules
    private final List<WindowSummary> extras = SourceKinds.newWindows();
    private final List<Mark> marks = new ArrayList<>();
    private final SourcedSeries sourced;
    private long readErrors;
    private Optional<ResourceUsage> closed = Optional.empty();
    private Optional<Duration> firstOomKillAt = Optional.empty();
    private volatile Consumer<RawReading> listener = reading -> { };

    private record Mark(String name, RawReading reading) {
    }

    private MeasurementWindow(ContainerWatch watch, WindowOwner owner, RawReading start, boolean highWaterMarkReset,
            boolean fromContainerStart) {
        this.watch = watch;
        this.owner = owner;
        this.start = start;
        this.highWaterMarkReset = highWaterMarkReset;
        this.fromContainerStart = fromContainerStart;
        this.recorder = new TimelineRecorder(start, MAX_POINTS);
        this.sourced = new SourcedSeries(start);
    }

    static MeasurementWindow open(ContainerWatch watch, WindowOwner owner) throws ProbeException {
        // reset first, then read: the start reading's usage is the mark's starting point
        boolean reset = watch.probe().resetHighWaterMark();
        // without a reset, the lifetime mark is still exact for a window that covers the container's whole life
        boolean lifetime = watch.claimLifetimeMark();
        watch.startNewHigh();
        return new MeasurementWindow(watch, owner, watch.readNow(), reset || lifetime, lifetime);
    }

    /** The test this window measures for. */
    public WindowOwner owner() {
        return owner;
    }

    void overlappedBy(WindowOwner other) {
        overlappedWith.addIfAbsent(other);
    }

    /**
     * The other tests whose windows on this container were open at any time while this one was, in the order they
     * were found; empty for a window alone on its container (a per-test container, or tests run one at a time).
     * Final once the window is closed.
     */
    public List<WindowOwner> overlappedWith() {
        return List.copyOf(overlappedWith);
    }

    /**
     * Whether this window began when the container started (it was started for the scope that opened it, and this
     * is its first window): the "container started by the test" column of docs/metrics.md's exactness table.
     */
    public boolean fromContainerStart() {
        return fromContainerStart;
    }

    public String containerName() {
        return watch.name();
    }

    synchronized void accept(RawReading reading) {
        if (closed.isEmpty()) {
            record(reading);
            listener.accept(reading);
        }
    }

    private void record(RawReading reading) {
        if (reading == recorder.last()) {
            // the last reading again, standing in for one the gone container could not give: no new point, or the
            // timeline would end in copies of it (a window whose container died before the first sample listed
            // only "0 ns" rows)
            return;
        }
        recorder.add(reading);
        Duration offset = offsetOf(reading);
        sourced.add(offset, reading);
        extras.forEach(summary -> summary.add(offset, reading));
        if (firstOomKillAt.isEmpty() && reading.memory().oomKills() > start.memory().oomKills()) {
            firstOomKillAt = Optional.of(offsetOf(reading));
        }
    }

    /** Called with every sampled reading, on the sampler thread; for live guards. Must be quick. */
    public void onReading(Consumer<RawReading> listener) {
        this.listener = listener;
    }

    /** When the first OOM kill was seen during the window, from the sample that first counted it. */
    public synchronized Optional<Duration> firstOomKillAt() {
        return firstOomKillAt;
    }

    /** Offset of a reading from the start of this window. */
    public Duration offsetOf(RawReading reading) {
        return Duration.ofNanos(reading.monotonicNanos() - start.monotonicNanos());
    }

    synchronized void recordError(ProbeException error) {
        if (closed.isEmpty()) {
            readErrors++;
        }
    }

    /** Starts a named phase now; the previous phase, if any, ends here. */
    public synchronized void mark(String name) {
        RawReading reading = readOrLast();
        record(reading);
        marks.add(new Mark(name, reading));
    }

    /** The usage so far, without ending the window. */
    public synchronized ResourceUsage usageSoFar() {
        if (closed.isPresent()) {
            return closed.get();
        }
        RawReading now = readOrLast();
        record(now);
        return compute(recorder.last());
    }

    /**
     * Ends the window with a last reading (or the last one taken, if the container is gone) and detaches it. Then
     * the probe is asked whether the container is alive: its files may still read while it dies (a killed
     * container's init process lives on for milliseconds after a {@code docker exec}'d command it took down), and
     * whether the sampler happened to look since must not decide the verdict.
     */
    public synchronized ResourceUsage close() {
        if (closed.isPresent()) {
            return closed.get();
        }
        RawReading end = readOrLast();
        record(end);
        watch.checkAlive(this);
        ResourceUsage usage = compute(recorder.last());
        closed = Optional.of(usage);
        watch.detach(this);
        return usage;
    }

    /** Why the container's readings ended early, if they did. */
    public Optional<String> containerGoneReason() {
        return watch.goneReason();
    }

    /**
     * When, from this window's start, the container was first found gone (by a sample, an edge reading or the
     * check at the window's end); empty while it lives. The last reading may be much earlier: the Engine API is
     * read once a second.
     */
    public Optional<Duration> containerGoneAt() {
        return watch.goneAtNanos().map(nanos -> Duration.ofNanos(Math.max(0, nanos - start.monotonicNanos())));
    }

    private RawReading readOrLast() {
        if (watch.goneReason().isPresent()) {
            return recorder.last();
        }
        try {
            return watch.readNow();
        } catch (ContainerGoneException e) {
            watch.markGone(e.getMessage());
            return recorder.last();
        } catch (ProbeException e) {
            readErrors++;
            return recorder.last();
        }
    }

    private ResourceUsage compute(RawReading end) {
        UsageCalculator.Subject subject = new UsageCalculator.Subject(watch.name(), watch.image(),
                watch.probe().kind(), watch.interval());
        List<TimelinePoint> points = recorder.points();
        Optional<DataSize> highWaterMark = highWaterMarkReset ? Snapshots.size(end.memory().highWaterMarkBytes())
                : Optional.empty();
        ResourceUsage usage = UsageCalculator.compute(subject, start, end, points, recorder.samples(), readErrors,
                highWaterMark, phases(subject, points, end)).toBuilder()
                .sourcedFigures(sourced.aggregate(start, end, Duration.ZERO, offsetOf(end))).build();
        for (WindowSummary summary : extras) {
            usage = summary.summarise(usage);
        }
        return usage;
    }

    private List<ResourceUsage.Phase> phases(UsageCalculator.Subject subject, List<TimelinePoint> points,
            RawReading end) {
        List<ResourceUsage.Phase> phases = new ArrayList<>();
        for (int i = 0; i < marks.size(); i++) {
            Mark mark = marks.get(i);
            RawReading phaseEnd = i + 1 < marks.size() ? marks.get(i + 1).reading() : end;
            Duration from = offsetOf(mark.reading());
            Duration to = offsetOf(phaseEnd);
            List<TimelinePoint> inside = points.stream()
                    .filter(p -> p.offset().compareTo(from) >= 0 && p.offset().compareTo(to) <= 0).toList();
            ResourceUsage usage = UsageCalculator.compute(subject, mark.reading(), phaseEnd, inside, inside.size(),
                    0, Optional.empty(), List.of()).toBuilder()
                    .sourcedFigures(sourced.aggregate(mark.reading(), phaseEnd, from, to)).build();
            for (WindowSummary summary : extras) {
                usage = summary.summarise(usage, from, to);
            }
            phases.add(new ResourceUsage.Phase(mark.name(), from, usage));
        }
        return phases;
    }

}
