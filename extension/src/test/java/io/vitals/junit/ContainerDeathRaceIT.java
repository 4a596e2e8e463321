package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ContainerFaultError;
import io.vitals.MeasureResources;
import io.vitals.testing.StressContainer;
import io.vitals.internal.units.DurationParser;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.testcontainers.junit.jupiter.Container;

/**
 * A container that dies however its death races the test's end is a fault, every time. Before the window's end
 * asked the probe, a container killed while the test waited on a command in it passed 3 of 10 times: the command
 * returns while the init process is still exiting, its cgroup files still read, and only a sampler tick that
 * happened to look later saw the death. Each case runs 20 times (the Engine API one 10), each on a container of
 * its own: killed at the start, in the middle, within the last 100 ms and while waiting on a command, and the main
 * process exiting on its own just before the test returns.
 */
@DisplayName("Container death racing the test's end")
class ContainerDeathRaceIT {

    private static final int RUNS = 20;
    private static final int ENGINE_API_RUNS = 10;
    private static final Pattern NOTICED = Pattern.compile("noticed at ([0-9.]+ (?:ns|µs|ms|s))");

    /** Per repetition: from the test method's start to the kill request (a lower bound of the kill's offset). */
    private static final Map<Integer, Duration> KILL_SENT = new ConcurrentHashMap<>();
    /** Per repetition of the natural exit: when docker saw the container exit, against the test's return. */
    private static final Map<Integer, String> EXITS = new ConcurrentHashMap<>();

    @TempDir
    Path reports;

    @Test
    @DisplayName("killed while the test waits on execInContainer (host probe): 20 of 20 fail, naming the stop")
    void killWhileWaitingOnExec() {
        EngineExecutionResults results = VitalsTestKit.run(reports, KillDuringExecTestCases.class,
                "vitals.probe", "host_cgroup");

        assertEveryRunFailedWithAStop(results);
    }

    @Test
    @DisplayName("killed while the test waits on execInContainer (Engine API probe): 10 of 10 fail, and the fault "
            + "is dated between the kill and the test's end, not at 0 ns")
    void killWhileWaitingOnExecThroughTheEngineApi() {
        KILL_SENT.clear();
        EngineExecutionResults results = VitalsTestKit.run(reports,
                KillDuringExecThroughTheEngineApiTestCases.class, "vitals.probe", "engine_api");

        List<Event> failed = assertEveryRunFailedWithAStop(results, ENGINE_API_RUNS);
        for (Event event : failed) {
            int repetition = repetitionOf(event);
            Duration noticed = noticedAt(VitalsTestKit.failureOf(event).getMessage());
            Duration killSent = KILL_SENT.get(repetition);
            // the window opens before the test method starts and closes before the test's finished event
            Duration testSpan = Duration.between(startOf(results, event), event.getTimestamp()).plusMillis(1);
            // "noticed at" is rounded to 1 ms below a second and to 0.1 s above
            assertThat(noticed.plusMillis(50)).as("repetition %d: noticed at %s, after the kill (sent %s into the "
                    + "test method)", repetition, DurationParser.format(noticed), DurationParser.format(killSent))
                    .isGreaterThanOrEqualTo(killSent);
            assertThat(noticed).as("repetition %d: noticed within the test (%s)", repetition,
                    DurationParser.format(testSpan)).isLessThanOrEqualTo(testSpan.plusMillis(50));
            System.out.printf("engine-api repetition %2d: kill sent %s into the test method, noticed at %s, test "
                    + "span %s%n", repetition, DurationParser.format(killSent), DurationParser.format(noticed),
                    DurationParser.format(testSpan));
            assertThat(VitalsTestKit.failureOf(event).getMessage()).as("the last samples carry real offsets")
                    .doesNotContainPattern("\\s0 ns\\s+MEM[^\\n]*\\n\\s+0 ns\\s+MEM");
        }
    }

    @Test
    @DisplayName("the main process exits on its own shortly before the test returns: 20 of 20 fail, naming the stop")
    void exitsJustAsTheTestReturns() {
        EXITS.clear();
        EngineExecutionResults results = VitalsTestKit.run(reports, ExitsAsTheTestReturnsTestCases.class,
                "vitals.probe", "host_cgroup");

        EXITS.forEach((repetition, exit) -> System.out.printf("natural exit repetition %2d: %s%n", repetition,
                exit));
        List<Event> failed = assertEveryRunFailedWithAStop(results);
        assertThat(failed).allSatisfy(event -> assertThat(VitalsTestKit.failureOf(event).getMessage())
                .contains("exit code 0"));
    }

    @Test
    @DisplayName("killed from outside at the start, in the middle, and within the last 100 ms of a test: 20 of 20 "
            + "fail each, naming the stop")
    void killedAtEachPointOfTheTest() {
        for (Class<?> cases : List.of(KilledAtTheStartTestCases.class, KilledInTheMiddleTestCases.class,
                KilledInTheLast100msTestCases.class)) {
            EngineExecutionResults results = VitalsTestKit.run(reports, cases, "vitals.probe", "host_cgroup");
            assertEveryRunFailedWithAStop(results);
        }
    }

    /** Kills {@code stress} {@code killAfterMillis} into the test, from another thread, while the test sleeps. */
    static void sleepWhileKilled(StressContainer stress, long killAfterMillis, long testMillis) throws Exception {
        whileKilled(stress, killAfterMillis, sent -> { }, () -> Thread.sleep(testMillis));
    }

    /**
     * Runs {@code test} while a second thread kills {@code stress} {@code killAfterMillis} after the start, and tells
     * {@code killSent} when the kill was sent; returns once both are done.
     */
    private static void whileKilled(StressContainer stress, long killAfterMillis,
            Consumer<Duration> killSent, TestBody test) throws Exception {
        long started = System.nanoTime();
        Thread killer = new Thread(() -> {
            try {
                Thread.sleep(killAfterMillis);
                killSent.accept(Duration.ofNanos(System.nanoTime() - started));
                stress.getDockerClient().killContainerCmd(stress.getContainerId()).exec();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "container-killer");
        killer.start();
        try {
            test.run();
        } finally {
            killer.join();
        }
    }

    /** The test's own part of a kill race. */
    @FunctionalInterface
    private interface TestBody {
        void run() throws Exception;
    }

    @MeasureResources
    static class KilledAtTheStartTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @RepeatedTest(RUNS)
        void killedAtOnce() throws Exception {
            sleepWhileKilled(stress, 0, 400);
        }
    }

    @MeasureResources
    static class KilledInTheMiddleTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @RepeatedTest(RUNS)
        void killedHalfWay() throws Exception {
            sleepWhileKilled(stress, 250, 500);
        }
    }

    @MeasureResources
    static class KilledInTheLast100msTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        /** The kill request goes out 30-70 ms before the test returns (a kill takes a few ms to land). */
        @RepeatedTest(RUNS)
        void killedJustBeforeTheEnd() throws Exception {
            sleepWhileKilled(stress, 400 + (System.nanoTime() % 40), 470);
        }
    }

    private static List<Event> assertEveryRunFailedWithAStop(EngineExecutionResults results) {
        return assertEveryRunFailedWithAStop(results, RUNS);
    }

    private static List<Event> assertEveryRunFailedWithAStop(EngineExecutionResults results, int runs) {
        List<Event> finished = results.testEvents().finished().list();
        List<Event> failed = results.testEvents().failed().list();
        String passed = finished.stream().filter(e -> !failed.contains(e))
                .map(e -> e.getTestDescriptor().getDisplayName() + Optional.ofNullable(EXITS.get(repetitionOf(e)))
                        .map(exit -> " (" + exit + ")").orElse(""))
                .reduce((a, b) -> a + ", " + b).orElse("none");
        assertThat(finished).hasSize(runs);
        assertThat(failed).as("runs that failed; passed: %s", passed).hasSize(runs);
        assertThat(failed).allSatisfy(event -> assertThat(VitalsTestKit.failureOf(event))
                .isInstanceOf(ContainerFaultError.class)
                .hasMessageStartingWith("container 'stress' stopped during the test (noticed at "));
        return failed;
    }

    private static Duration noticedAt(String message) {
        Matcher matcher = NOTICED.matcher(message);
        assertThat(matcher.find()).as("a 'noticed at' in: %s", message).isTrue();
        return DurationParser.parse(matcher.group(1));
    }

    private static int repetitionOf(Event event) {
        String name = event.getTestDescriptor().getDisplayName(); // "repetition 3 of 20"
        return Integer.parseInt(name.replaceAll("repetition (\\d+) of \\d+", "$1"));
    }

    private static Instant startOf(EngineExecutionResults results, Event finished) {
        return results.testEvents().list().stream()
                .filter(e -> e.getType() == EventType.STARTED && e.getTestDescriptor().equals(
                        finished.getTestDescriptor()))
                .findFirst().orElseThrow().getTimestamp();
    }

    /**
     * Waits on a 30 s command in {@code stress} while a second thread kills the container after 300 ms; the
     * command ends with the container, and the race is between this return and the init process's exit.
     */
    static void waitOnExecWhileKilled(StressContainer stress, RepetitionInfo repetition) throws Exception {
        whileKilled(stress, 300, sent -> KILL_SENT.put(repetition.getCurrentRepetition(), sent),
                () -> stress.execInContainer("sleep", "30"));
    }

    @MeasureResources
    static class KillDuringExecTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @RepeatedTest(RUNS)
        void waitsOnExec(RepetitionInfo repetition) throws Exception {
            waitOnExecWhileKilled(stress, repetition);
        }
    }

    /** As {@link KillDuringExecTestCases}, fewer times: the Engine API case is about the fault's time. */
    @MeasureResources
    static class KillDuringExecThroughTheEngineApiTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @RepeatedTest(ENGINE_API_RUNS)
        void waitsOnExec(RepetitionInfo repetition) throws Exception {
            waitOnExecWhileKilled(stress, repetition);
        }
    }

    @MeasureResources
    static class ExitsAsTheTestReturnsTestCases {

        @Container
        final StressContainer stress = new StressContainer().withCommand("sh", "-c", "sleep 0.95");

        private Instant returned;

        /**
         * Sleeps 50 ms longer than the container's command, which started before the container was watched and
         * the test began: it ends inside the test, by those 50 ms and the time that took (about 100 ms here).
         * Docker's StartedAt is too coarse a clock to aim closer: it saw exits 980 ms after it for a 1 s sleep.
         */
        @RepeatedTest(RUNS)
        void returnsAsTheContainerEnds() throws Exception {
            Thread.sleep(1000);
            returned = Instant.now();
        }

        /** Runs once the extension has judged the test: docker's own account, to check the premise. */
        @AfterEach
        void recordTheExit(RepetitionInfo repetition) throws Exception {
            String finishedAt = "";
            for (int i = 0; i < 100 && finishedAt.isEmpty(); i++) {
                var state = stress.getDockerClient().inspectContainerCmd(stress.getContainerId()).exec().getState();
                if (!Boolean.TRUE.equals(state.getRunning())) {
                    finishedAt = state.getFinishedAt();
                } else {
                    Thread.sleep(50);
                }
            }
            Instant startedAt = Instant.parse(stress.getContainerInfo().getState().getStartedAt());
            EXITS.put(repetition.getCurrentRepetition(), finishedAt.isEmpty() ? "still running 5 s after the test"
                    : "docker saw the exit " + DurationParser.format(Duration.between(startedAt,
                            Instant.parse(finishedAt))) + " after its start, the test returned "
                            + DurationParser.format(Duration.between(startedAt, returned)) + " after it");
        }
    }
}
