package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.vitals.testing.UsageFixtures;

import java.util.Objects;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SnapshotFigures: the state behind ResourceSnapshot")
class SnapshotFiguresTests {

    private final ResourceSnapshot snapshot = UsageFixtures.snapshot().pids(7).oomKills(1).build();

    private static SnapshotFigures figuresOf(ResourceSnapshot s) {
        return new SnapshotFigures(s.takenAt(), s.memoryUsage(), s.memoryCharged(), s.memoryLimit(), s.pageCache(),
                s.anonymousMemory(), s.swap(), s.cpuTime(), s.cpuUserTime(), s.cpuSystemTime(), s.pids(),
                s.blockRead(), s.blockWrite(), s.networkReceived(), s.networkSent(), s.oomKills(),
                s.memoryLimitHits(), s.throttledPeriods(), s.throttledTime(), s.cpuPressure(), s.memoryPressure(),
                s.ioPressure(), s.probe());
    }

    @Test
    @DisplayName("the hash code is Objects.hash over the figures in order, as the snapshot's was before the record")
    void hashCodeAsBefore() {
        ResourceSnapshot s = snapshot;
        int before = Objects.hash(s.takenAt(), s.memoryUsage(), s.memoryCharged(), s.memoryLimit(), s.pageCache(),
                s.anonymousMemory(), s.swap(), s.cpuTime(), s.cpuUserTime(), s.cpuSystemTime(), s.pids(),
                s.blockRead(), s.blockWrite(), s.networkReceived(), s.networkSent(), s.oomKills(),
                s.memoryLimitHits(), s.throttledPeriods(), s.throttledTime(), s.cpuPressure(), s.memoryPressure(),
                s.ioPressure(), s.probe());

        assertThat(figuresOf(s).hashCode()).isEqualTo(before).isEqualTo(s.hashCode());
        assertThat(figuresOf(s)).isEqualTo(figuresOf(s.toBuilder().build()));
    }

    @Test
    @DisplayName("describe prints every figure by name under the given type, the probe second")
    void describe() {
        assertThat(figuresOf(snapshot).describe("ResourceSnapshot")).isEqualTo(snapshot.toString())
                .startsWith("ResourceSnapshot[takenAt=1970-01-01T00:00:00Z, probe=HOST_CGROUP_V2, memoryUsage=0 B, ")
                .contains(", pids=7, ", ", oomKills=1, ", ", swap=Optional.empty, ")
                .endsWith(", ioPressure=Optional.empty]");
    }

    @Test
    @DisplayName("a figure left null is named, the first one in declaration order")
    void nullFigureNamed() {
        assertThatNullPointerException().isThrownBy(() -> UsageFixtures.snapshot().pageCache(null)
                .cpuTime(null).build()).withMessage("pageCache");
        assertThatNullPointerException().isThrownBy(() -> UsageFixtures.snapshot().probe(null).build())
                .withMessage("probe");
    }
}
