package io.vitals.internal.sampling;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.Extra;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadBatch;
import io.vitals.internal.probe.ResourceProbe;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watched container: its probe, its sampling interval, and the measurement windows (tests, phases) that want
 * its readings. Several windows may be open at once on a container shared by concurrent tests.
 */
@API(status = INTERNAL, since = "0.1")
public final class ContainerWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ContainerWatch.class);

    /**
     * How often the sampler reads the full set of files (memory.stat, net/dev, block I/O, pressure, limits); the
     * ticks in between read only the fast counters ({@link ResourceProbe#readFast}). Window edges always read the
     * full set, so every counter a report takes as a difference is exact whatever this period. One second, the
     * period of docker's own stats collector: at 500 ms the full reads were a quarter of the sampler's CPU time
     * (SamplerOverheadBenchmark, 100 containers at 50 ms), for figures that only the timeline shows between edges.
     */
    static final Duration FULL_READ_PERIOD = Duration.ofSeconds(1);

    private final String name;
    private final String image;
    private final ResourceProbe probe;
    private final Duration interval;
    private final Sampler sampler;
    private final List<MeasurementWindow> windows = new CopyOnWriteArrayList<>();
    // guards opening and detaching windows, so that each window sees every other one open during its life; the
    // sampler iterates the copy-on-write list above without it, so a tick never waits for a test's edge
    private final Object openWindowsLock = new Object();
    private volatile Optional<Gone> gone = Optional.empty();
    private volatile RawReading lastReading;
    /** The last full reading: what a fast read carries its slower figures over from. */
    private volatile RawReading lastFullReading;
    private final int fullReadEvery;
    private final LongSupplier monotonicClock;
    private int ticksSinceFullRead;
    // whether the last periodic full read was left out because the container had been idle (see readTick)
    private boolean skippedIdleFullRead;
    // true until the first window is opened on a container started for the scope that watches it: that window
    // covers the container's whole life, so the kernel's lifetime high-water mark is its exact peak
    private boolean lifetimeMarkUnclaimed;
    /**
     * The highest working set among the full reads since the last window opened. A fast read that passes it by
     * more than {@link #NEW_HIGH_STEP} is followed at once by a full read, so that memory.stat, and the peak's
     * composition taken from it, is read at each new high rather than once a second.
     */
    private volatile long fullReadHigh;

    /**
     * A new high must pass the last fully read one by this fraction (1/64, 1.6 %) to cost a full read: memory that
     * grows steadily then costs one full read per 1.6 % of growth, about 150 from 100 MiB to 1 GiB, rather than one
     * per tick, and the composition is read within 1.6 % of the sampled peak.
     */
    static final int NEW_HIGH_STEP = 64;

    /**
     * Starts sampling. The effective interval is the requested one, or the probe's minimum if that is longer (the
     * Engine API cannot usefully be asked more than once a second).
     */
    public static ContainerWatch start(String name, String image, ResourceProbe probe, Duration requestedInterval,
            Sampler sampler) {
        return start(name, image, probe, requestedInterval, sampler, false);
    }

    /**
     * As {@link #start(String, String, ResourceProbe, Duration, Sampler)}; {@code startedForThisScope} says the
     * container was started for the test (or class) that watches it, so the first window may use the kernel's
     * lifetime high-water mark where the probe cannot reset it (cgroup v2 before Linux 6.12, non-root users).
     */
    public static ContainerWatch start(String name, String image, ResourceProbe probe, Duration requestedInterval,
            Sampler sampler, boolean startedForThisScope) {
        Duration interval = requestedInterval.compareTo(probe.minimumInterval()) < 0 ? probe.minimumInterval()
                : requestedInterval;
        ContainerWatch watch = new ContainerWatch(name, image, probe, interval, sampler, startedForThisScope);
        sampler.schedule(watch, interval);
        return watch;
    }

    /** A watch that is not scheduled: {@link #start} schedules it; tests drive its ticks by hand. */
    ContainerWatch(String name, String image, ResourceProbe probe, Duration interval, Sampler sampler) {
        this(name, image, probe, interval, sampler, false);
    }

    /** As above, for a container started for the scope that watches it (see {@link #start}). */
    ContainerWatch(String name, String image, ResourceProbe probe, Duration interval, Sampler sampler,
            boolean startedForThisScope) {
        this(name, image, probe, interval, sampler, startedForThisScope, System::nanoTime);
    }

    /**
     * As above, with the clock that dates a death: {@link System#nanoTime()}, the readings' own scale; tests that
     * script readings' times script it too.
     */
    ContainerWatch(String name, String image, ResourceProbe probe, Duration interval, Sampler sampler,
            boolean startedForThisScope, LongSupplier monotonicClock) {
        this.monotonicClock = monotonicClock;
        this.lifetimeMarkUnclaimed = startedForThisScope;
        this.name = name;
        this.image = image;
        this.probe = probe;
        this.interval = interval;
        this.sampler = sampler;
        this.fullReadEvery = fullReadEvery(interval);
    }

    /** Ticks per full read: 20 at the default 50 ms, 1 (every tick) at 1 s and slower. */
    static int fullReadEvery(Duration interval) {
        long every = FULL_READ_PERIOD.toNanos() / Math.max(1, interval.toNanos());
        return (int) Math.max(1, Math.min(every, 1000));
    }

    public String name() {
        return name;
    }

    public String image() {
        return image;
    }

    public Duration interval() {
        return interval;
    }

    public ResourceProbe probe() {
        return probe;
    }

    /** Why sampling ended early, if the container went away. */
    public Optional<String> goneReason() {
        return gone.map(Gone::reason);
    }

    /** When (on the readings' {@link System#nanoTime()} scale) the container was first found gone. */
    Optional<Long> goneAtNanos() {
        return gone.map(Gone::monotonicNanos);
    }

    /**
     * The container went away: why, as the probe put it, and when that was first seen.
     *
     * @param reason the probe's words
     * @param monotonicNanos when it was seen, on the readings' clock
     */
    private record Gone(String reason, long monotonicNanos) {
    }

    /** Opens a window for no test in particular; see {@link #openWindow(WindowOwner)}. */
    public MeasurementWindow openWindow() throws ProbeException {
        return openWindow(WindowOwner.unnamed());
    }

    /**
     * Opens a window that starts now: before-snapshot, high-water mark reset, then the sampler's readings. Every
     * window of another owner still open on this container, and the new one, note each other as overlapping: the
     * container's figures in either then include what the other test did (two intervals overlap exactly when one
     * starts while the other is open, so this one check at opening finds every overlap).
     */
    public MeasurementWindow openWindow(WindowOwner owner) throws ProbeException {
        MeasurementWindow window = MeasurementWindow.open(this, owner);
        synchronized (openWindowsLock) {
            for (MeasurementWindow other : windows) {
                if (other.owner() != owner) {
                    other.overlappedBy(owner);
                    window.overlappedBy(other.owner());
                }
            }
            windows.add(window);
        }
        return window;
    }

    /** True once, for the first window of a container started for this scope; see {@link #start}. */
    synchronized boolean claimLifetimeMark() {
        boolean unclaimed = lifetimeMarkUnclaimed;
        lifetimeMarkUnclaimed = false;
        return unclaimed;
    }

    void detach(MeasurementWindow window) {
        synchronized (openWindowsLock) {
            windows.remove(window);
        }
    }

    /** Reads now on the calling thread; used for snapshots at the edges of windows. */
    RawReading readNow() throws ProbeException {
        return fullReading(probe.read());
    }

    private RawReading fullReading(RawReading reading) {
        lastFullReading = reading;
        lastReading = reading;
        fullReadHigh = Math.max(fullReadHigh, reading.memory().workingSetBytes());
        return reading;
    }

    /** A window opens: the next full read starts a new high (see {@link #fullReadHigh}). */
    void startNewHigh() {
        fullReadHigh = 0;
    }

    /**
     * A sampler tick: the fast counters, or the full set every {@link #fullReadEvery} ticks. Where ticks come faster
     * than full reads, a container whose CPU counter has not moved since the last full read (as of the previous
     * tick), and that has no figures from a further source (a GPU it may use without CPU), has every other
     * periodic full read left out: its full set is then read every two periods. Of 100 idle containers' sampling
     * cost the full reads were a third (SamplerTickBreakdown), for figures an idle container rarely moves.
     * Whatever moves without the container's CPU (packets arriving, page cache reclaimed, dirty pages written
     * back) shows at the next full read, at most two periods later; the window's edges are full reads, so no
     * figure of a test changes.
     */
    private RawReading readTick() throws ProbeException {
        RawReading full = lastFullReading;
        if (full == null || ++ticksSinceFullRead >= fullReadEvery) {
            ticksSinceFullRead = 0;
            if (full != null && skipsIdleFullRead(full)) {
                skippedIdleFullRead = true;
                return readFast();
            }
            skippedIdleFullRead = false;
            return fullReading(probe.readScheduled());
        }
        return readFast();
    }

    private boolean skipsIdleFullRead(RawReading full) {
        return fullReadEvery > 1 && !skippedIdleFullRead && idleSince(full);
    }

    /**
     * Where the probe's tick reads can be fetched with others' in one round trip (see {@link ReadBatch}), its
     * place in that batch; empty otherwise, and once the container is gone.
     */
    Optional<ReadBatch.Member> batchMember() {
        return gone.isPresent() ? Optional.empty() : probe.batchMember();
    }

    /**
     * Whether the next tick reads the full set, as {@link #readTick()} will decide it. Asked by the sampler thread
     * just before the tick, for the batch, so it changes nothing; where the prediction turns out wrong (a
     * test's edge read in between), the prefetched answer is left unused and the read is made as usual.
     */
    boolean nextTickReadsFull() {
        RawReading full = lastFullReading;
        return full == null || (ticksSinceFullRead + 1 >= fullReadEvery && !skipsIdleFullRead(full));
    }

    private boolean idleSince(RawReading full) {
        RawReading last = lastReading;
        return last.cpu().totalNanos() == full.cpu().totalNanos()
                && full.extras().groups().values().stream().noneMatch(Extra::isAvailable);
    }

    private RawReading readFast() throws ProbeException {
        RawReading reading = probe.readFast(lastReading);
        lastReading = reading;
        long high = fullReadHigh;
        if (reading.memory().workingSetBytes() > high + high / NEW_HIGH_STEP) {
            return readNow();
        }
        return reading;
    }

    Optional<RawReading> lastReading() {
        return Optional.ofNullable(lastReading);
    }

    void sampleOnce() {
        if (gone.isPresent()) {
            return;
        }
        RawReading reading;
        try {
            reading = readTick();
        } catch (ContainerGoneException e) {
            markGone(e.getMessage());
            return;
        } catch (ProbeException e) {
            LOG.debug("Sample of container '{}' failed", name, e);
            windows.forEach(window -> window.recordError(e));
            return;
        } catch (RuntimeException e) {
            // never let an unexpected failure kill the shared sampler thread: count it against this container
            windows.forEach(window -> window.recordError(new ProbeException(e.toString(), e)));
            return;
        }
        windows.forEach(window -> window.accept(reading));
    }

    /**
     * Asks the probe, now, whether the container has died or is dying (see {@link ResourceProbe#goneNow()}), and
     * marks it gone if so. A failed check is a read error of {@code window}, not a death.
     */
    void checkAlive(MeasurementWindow window) {
        if (gone.isPresent()) {
            return;
        }
        try {
            probe.goneNow().ifPresent(this::markGone);
        } catch (ContainerGoneException e) {
            markGone(e.getMessage());
        } catch (ProbeException e) {
            LOG.debug("Liveness check of container '{}' failed", name, e);
            window.recordError(e);
        }
    }

    /** Marks the container gone, keeping the first reason and moment if several threads find it so. */
    synchronized void markGone(String reason) {
        if (gone.isEmpty()) {
            gone = Optional.of(new Gone(reason, monotonicClock.getAsLong()));
        }
        sampler.unschedule(this);
    }

    /** Stops sampling and closes the probe. Call before the container is stopped. */
    @Override
    public void close() {
        sampler.unschedule(this);
        probe.close();
    }
}
