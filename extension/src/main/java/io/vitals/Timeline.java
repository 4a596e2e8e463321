package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * The sampled figures of one container over one test, oldest first.
 *
 * @param points the points
 * @param samplingInterval the interval the sampler was asked for
 * @param samples how many samples were taken (more than {@code points().size()} once compacted)
 * @param readErrors samples that failed to read; each is also logged
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Timeline(List<TimelinePoint> points, Duration samplingInterval, long samples, long readErrors) {

    /**
     * Keeps an unmodifiable copy of the points.
     *
     * @param points the points
     * @param samplingInterval the interval the sampler was asked for
     * @param samples how many samples were taken (more than {@code points().size()} once compacted)
     * @param readErrors samples that failed to read; each is also logged
     */
    public Timeline {
        // immutable like List.copyOf, and it keeps the memory growth once computed (see TimelinePoints)
        points = TimelinePoints.copyOf(points);
        Objects.requireNonNull(samplingInterval, "samplingInterval");
    }

    /**
     * {@return true when the timeline holds fewer points than samples, each point then standing for several samples}
     */
    public boolean isCompacted() {
        return samples > points.size();
    }
}
