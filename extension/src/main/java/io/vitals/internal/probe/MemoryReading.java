package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * A container's memory figures at one reading, in bytes. Optional figures are empty where the host does not
 * account them (no swap accounting, no resettable mark), never zero, so "not measured" is not "measured as none".
 *
 * @param chargedBytes memory charged to the cgroup, page cache included (v1 usage_in_bytes, v2 memory.current)
 * @param inactiveFileBytes inactive file cache, which docker subtracts to get MEM USAGE
 * @param pageCacheBytes page cache (v1 total_cache, v2 file)
 * @param anonymousBytes anonymous memory (v1 total_rss, v2 anon)
 * @param swapBytes swap in use, where the host accounts it
 * @param limitBytes the hard limit, empty when unlimited
 * @param highWaterMarkBytes the kernel's high-water mark of charged memory since its last reset
 * @param limitHits times usage hit the limit (v1 memory.failcnt, v2 memory.events max)
 * @param oomKills processes killed by the OOM killer in the cgroup
 */
@API(status = INTERNAL, since = "0.1")
public record MemoryReading(
        long chargedBytes,
        long inactiveFileBytes,
        long pageCacheBytes,
        long anonymousBytes,
        OptionalLong swapBytes,
        OptionalLong limitBytes,
        OptionalLong highWaterMarkBytes,
        long limitHits,
        long oomKills) {

    public MemoryReading {
        Objects.requireNonNull(swapBytes, "swapBytes");
        Objects.requireNonNull(limitBytes, "limitBytes");
        Objects.requireNonNull(highWaterMarkBytes, "highWaterMarkBytes");
    }

    /** A builder with every figure zero or empty; probes set what they read. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Memory in use as {@code docker stats} shows it ("MEM USAGE"): charged memory minus the inactive file cache,
     * the rule of the docker CLI since 20.10 and of cAdvisor's working set.
     */
    public long workingSetBytes() {
        return inactiveFileBytes < chargedBytes ? chargedBytes - inactiveFileBytes : chargedBytes;
    }

    /**
     * These figures with the counters a fast (tiered) read refreshes replaced and the rest (memory.stat, limit,
     * high-water mark) carried over from the last full read.
     */
    public MemoryReading withFastCounters(long chargedBytes, long limitHits, long oomKills) {
        return new MemoryReading(chargedBytes, inactiveFileBytes, pageCacheBytes, anonymousBytes, swapBytes,
                limitBytes, highWaterMarkBytes, limitHits, oomKills);
    }

    /** Names each figure, so that a probe cannot swap two of the nine by position. */
    public static final class Builder {

        private long chargedBytes;
        private long inactiveFileBytes;
        private long pageCacheBytes;
        private long anonymousBytes;
        private OptionalLong swapBytes = OptionalLong.empty();
        private OptionalLong limitBytes = OptionalLong.empty();
        private OptionalLong highWaterMarkBytes = OptionalLong.empty();
        private long limitHits;
        private long oomKills;

        private Builder() {
        }

        public Builder charged(long bytes) {
            this.chargedBytes = bytes;
            return this;
        }

        public Builder inactiveFile(long bytes) {
            this.inactiveFileBytes = bytes;
            return this;
        }

        public Builder pageCache(long bytes) {
            this.pageCacheBytes = bytes;
            return this;
        }

        public Builder anonymous(long bytes) {
            this.anonymousBytes = bytes;
            return this;
        }

        public Builder swap(OptionalLong bytes) {
            this.swapBytes = Objects.requireNonNull(bytes, "swap");
            return this;
        }

        public Builder limit(OptionalLong bytes) {
            this.limitBytes = Objects.requireNonNull(bytes, "limit");
            return this;
        }

        public Builder highWaterMark(OptionalLong bytes) {
            this.highWaterMarkBytes = Objects.requireNonNull(bytes, "highWaterMark");
            return this;
        }

        public Builder limitHits(long count) {
            this.limitHits = count;
            return this;
        }

        public Builder oomKills(long count) {
            this.oomKills = count;
            return this;
        }

        public MemoryReading build() {
            return new MemoryReading(chargedBytes, inactiveFileBytes, pageCacheBytes, anonymousBytes, swapBytes,
                    limitBytes, highWaterMarkBytes, limitHits, oomKills);
        }
    }
}
