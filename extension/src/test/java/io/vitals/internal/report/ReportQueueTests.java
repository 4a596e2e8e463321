package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class ReportQueueTests {

    // far longer than any test may wait: whatever runs here did not wait for its batch's delay
    private static final Duration NEVER = Duration.ofHours(1);

    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    @Test
    void runsTasksInTheOrderTheyWereQueued() throws Exception {
        ReportQueue queue = new ReportQueue("test-writer", Duration.ofMillis(1), warnings::add);
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 1_000; i++) {
            int task = i;
            queue.add(() -> ran.add(task));
        }
        queue.await();
        assertThat(ran).containsExactlyElementsOf(IntStream.range(0, 1_000).boxed().toList());
        queue.finish();
    }

    @Test
    void aBatchRunsAfterItsDelayWithoutBeingAsked() throws Exception {
        ReportQueue queue = new ReportQueue("test-writer", Duration.ofMillis(20), warnings::add);
        CountDownLatch ran = new CountDownLatch(2);
        queue.add(ran::countDown);
        queue.add(ran::countDown);
        assertThat(ran.await(30, TimeUnit.SECONDS)).as("both tasks ran on their own").isTrue();
        queue.finish();
    }

    @Test
    void runSoonDoesNotWaitForTheBatchDelay() throws Exception {
        ReportQueue queue = new ReportQueue("test-writer", NEVER, warnings::add);
        CountDownLatch ran = new CountDownLatch(1);
        queue.add(ran::countDown);
        queue.runSoon();
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        queue.finish();
    }

    @Test
    void finishRunsEverythingQueuedAtOnceAndEndsTheThread() throws Exception {
        ReportQueue queue = new ReportQueue("test-writer-to-finish", NEVER, warnings::add);
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        queue.add(() -> ran.add(1));
        queue.add(() -> ran.add(2));
        queue.finish();
        assertThat(queue.awaitFinished(Duration.ofSeconds(30))).as("finished without the hour's delay").isTrue();
        assertThat(ran).containsExactly(1, 2);
        // the pool is terminated once its worker has left its loop; the thread itself ends a moment later, so it is
        // given a bounded while to end rather than asserted dead at once (which failed 1 of 6 full unit runs)
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("test-writer-to-finish")) {
                thread.join(5_000);
                assertThat(thread.isAlive()).as("writer thread left behind").isFalse();
            }
        }
    }

    @Test
    void aTaskThatThrowsDoesNotStrandTheTasksBehindIt() throws Exception {
        ReportQueue queue = new ReportQueue("test-writer", NEVER, warnings::add);
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        queue.add(() -> {
            throw new IllegalStateException("broken writer");
        });
        queue.add(() -> ran.add(2));
        queue.await();
        assertThat(ran).containsExactly(2);
        assertThat(warnings).singleElement().asString().contains("broken writer");
        queue.finish();
    }
}
