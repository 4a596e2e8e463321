package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.testing.StressContainer;

import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Container;

/**
 * Every budget attribute, passing and failing, on real stress containers with a known footprint. Each fixture
 * test does one thing whose size we know, and declares one budget above it and one below it.
 */
@DisplayName("@ResourceBudget on real containers")
class BudgetsIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("each budget passes above the known footprint and fails below it, with a message naming it")
    void eachBudgetPassesAndFails() {
        EngineExecutionResults results = VitalsTestKit.run(reports, BudgetTestCases.class);

        for (String passing : new String[] {"peakMemoryWithin", "headroomWithin", "cpuTimeWithin", "averageCpuWithin",
                "peakPidsWithin", "memoryGrowthWithin", "throttledTimeWithin", "networkSentWithin",
                "blockReadWithin"}) {
            results.testEvents().assertThatEvents().haveExactly(1,
                    event(test(passing), finishedSuccessfully()));
        }
        assertFailure(results, "peakMemoryOver", "peak memory ", "exceeds the budget of 100MiB");
        assertFailure(results, "headroomOver", "memory headroom ", "is below the budget of 85%");
        assertFailure(results, "cpuTimeOver", "CPU time ", "exceeds the budget of 500ms");
        assertFailure(results, "averageCpuOver", "average CPU ", "exceeds the budget of 2%");
        assertFailure(results, "peakPidsOver", "peak PIDs ", "exceeds the budget of 10");
        assertFailure(results, "memoryGrowthOver", "memory growth ", "exceeds the budget of 1MiB/min");
        assertFailure(results, "throttledTimeOver", "throttled time ", "exceeds the budget of 100ms");
        assertFailure(results, "networkSentOver", "network sent ", "exceeds the budget of 1KiB");
        assertFailure(results, "severalBudgetsAtOnce", "peak memory ", "CPU time ");
        results.testEvents().assertStatistics(stats -> stats.started(18).succeeded(9).failed(9));
    }

    private static void assertFailure(EngineExecutionResults results, String test, String... fragments) {
        results.testEvents().assertThatEvents().haveExactly(1, event(test(test), finishedWithFailure(
                instanceOf(ResourceBudgetExceededError.class),
                message(m -> m.startsWith("Resource budget exceeded by container 'stress' (vitals/stress:latest):")
                        && java.util.Arrays.stream(fragments).allMatch(m::contains)))));
    }

    @MeasureResources
    static class BudgetTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("1GiB")
                .withCpuQuota(100_000, 100_000).withPidsLimit(500); // one CPU, as a quota throttledTimeOver can lower

        private static void allocate200MiB() throws Exception {
            stress.sh("dd if=/dev/zero bs=200M count=1 iflag=fullblock 2>/dev/null"
                    + " | { head -c 1 >/dev/null; sleep 0.5; }");
        }

        private static void burnOneCoreForOneSecond() throws Exception {
            // a fixed amount of work (about 2,900 int64 ops per CPU second here), not a fixed time: CPU time stays
            // the same when other work on the machine slows it down
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet");
        }

        @Test
        @ResourceBudget(peakMemory = "400MiB")
        void peakMemoryWithin() throws Exception {
            allocate200MiB();
        }

        @Test
        @ResourceBudget(peakMemory = "100MiB")
        void peakMemoryOver() throws Exception {
            allocate200MiB();
        }

        @Test
        @ResourceBudget(memoryHeadroom = "60%")
        void headroomWithin() throws Exception {
            allocate200MiB();
        }

        @Test
        @ResourceBudget(memoryHeadroom = "85%")
        void headroomOver() throws Exception {
            allocate200MiB();
        }

        @Test
        @ResourceBudget(cpuTime = "10s")
        void cpuTimeWithin() throws Exception {
            // about 1 s on an idle machine; contention stretches CPU time too, up to ~3x (docs/tensorflow.md)
            burnOneCoreForOneSecond();
        }

        @Test
        @ResourceBudget(cpuTime = "500ms")
        void cpuTimeOver() throws Exception {
            burnOneCoreForOneSecond();
        }

        @Test
        @ResourceBudget(averageCpu = "150%")
        void averageCpuWithin() throws Exception {
            burnOneCoreForOneSecond();
        }

        @Test
        @ResourceBudget(averageCpu = "2%")
        void averageCpuOver() throws Exception {
            // a busy second averages close to 100 % on an idle machine, but far less when other work takes the
            // cores (8 % was measured under a load average of 20), so the floor of what "over" means is low
            burnOneCoreForOneSecond();
        }

        @Test
        @ResourceBudget(peakPids = "200")
        void peakPidsWithin() throws Exception {
            stress.sh("for i in $(seq 50); do sleep 1 & done; wait");
        }

        @Test
        @ResourceBudget(peakPids = "10")
        void peakPidsOver() throws Exception {
            stress.sh("for i in $(seq 50); do sleep 1 & done; wait");
        }

        @Test
        @ResourceBudget(memoryGrowth = "100MiB/min")
        void memoryGrowthWithin() throws Exception {
            // 11 s: a shorter window is too short to estimate a trend, and its budget "not measurable"
            stress.sh("sleep 11");
        }

        @Test
        @ResourceBudget(memoryGrowth = "1MiB/min")
        void memoryGrowthOver() throws Exception {
            // grows by 20 MiB every 1.4 s into a tmpfs file (shmem is charged to the container), then frees it:
            // over 11 s, as a shorter window is too short to estimate a trend (Measurability.trendTooShort)
            stress.sh("for i in $(seq 8); do dd if=/dev/zero of=/dev/shm/grow$i bs=1M count=20 2>/dev/null;"
                    + " sleep 1.4; done; rm -f /dev/shm/grow*");
        }

        @Test
        @ResourceBudget(throttledTime = "10s")
        void throttledTimeWithin() throws Exception {
            stress.sh("stress-ng --cpu 2 --cpu-method int64 --timeout 1s --quiet");
        }

        @Test
        @ResourceBudget(throttledTime = "100ms")
        void throttledTimeOver() throws Exception {
            // two busy workers under a fifth of a CPU, set only for this test: under a whole CPU, a busy machine
            // (a CI run next to a busy loop) left the workers short of the quota itself and nothing was throttled
            setCpuQuota(20_000);
            try {
                stress.sh("stress-ng --cpu 2 --cpu-method int64 --timeout 2s --quiet");
            } finally {
                setCpuQuota(100_000);
            }
        }

        private static void setCpuQuota(long quotaMicros) {
            DockerClientFactory.lazyClient().updateContainerCmd(stress.getContainerId()).withCpuPeriod(100_000L)
                    .withCpuQuota(quotaMicros).exec();
        }

        @Test
        @ResourceBudget(networkSent = "10MiB")
        void networkSentWithin() throws Exception {
            stress.sh("sleep 0.2");
        }

        @Test
        @ResourceBudget(networkSent = "1KiB")
        void networkSentOver() throws Exception {
            // a UDP datagram flood to an unused port of the bridge's gateway: leaves through eth0, no reply
            stress.sh("gw=$(awk '$2 == \"00000000\" {print $3}' /proc/net/route | head -1);"
                    + " ip=$(printf '%d.%d.%d.%d' 0x${gw:6:2} 0x${gw:4:2} 0x${gw:2:2} 0x${gw:0:2});"
                    + " for i in $(seq 20); do head -c 1000 /dev/zero > /dev/udp/$ip/9; done");
        }

        @Test
        @ResourceBudget(blockRead = "1GiB")
        void blockReadWithin() throws Exception {
            stress.sh("cat /usr/bin/stress-ng > /dev/null");
        }

        @Test
        @ResourceBudget(peakMemory = "100MiB", cpuTime = "100ms")
        void severalBudgetsAtOnce() throws Exception {
            allocate200MiB();
            burnOneCoreForOneSecond();
        }
    }
}
