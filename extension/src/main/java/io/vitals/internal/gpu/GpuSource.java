package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.GpuUsage;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ExtraKey;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadingSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import org.apiguardian.api.API;

/**
 * The GPU source: queries a {@link GpuDriver} (NVML, or {@code nvidia-smi}) for devices and compute processes and
 * attributes them to each container by the PIDs of its cgroup ({@link GpuAttribution}). One query serves every
 * container for {@link #MIN_PERIOD}: NVML refreshes utilisation every 1/6 s to 1 s, so asking faster buys nothing.
 *
 * <p>Where the driver does not answer at all (no driver, no binary), the first query finds out and every later
 * reading says "no GPU visible: …" at no cost.
 */
@API(status = INTERNAL, since = "0.1")
public final class GpuSource implements ReadingSource {

    /** The shortest time between two queries; the sampler's full reads come every second anyway. */
    static final Duration MIN_PERIOD = Duration.ofMillis(500);

    private final GpuDriver driver;
    private final ContainerPids pids;
    private final LongSupplier nanoTime;
    private GpuAttribution.Query last;
    private Optional<String> noGpu = Optional.empty();

    GpuSource(GpuDriver driver, ContainerPids pids, LongSupplier nanoTime) {
        this.driver = driver;
        this.pids = pids;
        this.nanoTime = nanoTime;
    }

    /** A source asking {@code driver} about containers of this host. */
    static GpuSource forThisHost(GpuDriver driver) {
        return new GpuSource(driver, new ContainerPids(CgroupLocator.forThisHost()), System::nanoTime);
    }

    @Override
    public String name() {
        return driver.name();
    }

    /** Whether the driver has answered a query: until then, and on a host where it never does, it was not used. */
    @Override
    public synchronized boolean answered() {
        return last != null;
    }

    @Override
    public List<ExtraKey<?>> keys() {
        return List.of(GpuReading.KEY);
    }

    @Override
    public void contribute(ContainerTarget target, RawReading.Builder reading) throws ProbeException {
        Optional<GpuAttribution.Query> query = query();
        if (query.isEmpty()) {
            reading.unavailable(GpuReading.KEY, noGpu.orElseThrow());
            return;
        }
        reading.extra(GpuReading.KEY, GpuAttribution.attribute(query.get(), pids.of(target)));
    }

    /** The latest query, made now if the last is older than {@link #MIN_PERIOD}; empty where no GPU is visible. */
    synchronized Optional<GpuAttribution.Query> query() throws ProbeException {
        if (noGpu.isPresent()) {
            return Optional.empty();
        }
        long now = nanoTime.getAsLong();
        if (last != null && now - last.queriedAtNanos() < MIN_PERIOD.toNanos()) {
            return Optional.of(last);
        }
        try {
            last = driver.query(now);
        } catch (IOException e) {
            if (last == null) {
                // never answered: no driver or no binary here, which is no error but a host without a GPU
                noGpu = Optional.of(GpuUsage.NO_GPU_VISIBLE + ": " + driver.name() + " does not run here ("
                        + e.getMessage() + ")");
                return Optional.empty();
            }
            throw new ProbeException(e.getMessage(), e);
        }
        return Optional.of(last);
    }
}
