package io.vitals.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers
@DisplayName("The stress image")
class StressImageIT {

    @Container
    static final StressContainer stress = new StressContainer().withMemoryLimit("256MiB").withPidsLimit(200);

    @Test
    @DisplayName("sees, from inside, the memory limit it was given (cgroup v1 or v2 file)")
    void memoryLimitIsAppliedInsideTheContainer() throws Exception {
        String limit = stress.sh("cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null "
                + "|| cat /sys/fs/cgroup/memory.max").getStdout().trim();

        assertThat(Long.parseLong(limit)).isEqualTo(256L * 1024 * 1024);
    }

    @Test
    @DisplayName("sees, from inside, the PIDs limit it was given")
    void pidsLimitIsAppliedInsideTheContainer() throws Exception {
        String limit = stress.sh("cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max")
                .getStdout().trim();

        assertThat(limit).isEqualTo("200");
    }

    @Test
    @DisplayName("runs stress-ng")
    void runsStressNg() throws Exception {
        assertThat(stress.sh("stress-ng --version").getStdout()).contains("stress-ng");
    }
}
