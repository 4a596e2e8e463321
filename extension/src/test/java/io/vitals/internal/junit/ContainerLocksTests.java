package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.Measured;
import io.vitals.SharedLoad;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;

/**
 * The JUnit resource locks Vitals derives from the watched fields: which tests share a container, under which key
 * and mode; then JUnit's own parallel execution with them, on fixtures whose tests record who ran at the same time
 * (no container is started: the fixtures name the provider in {@code @ResourceLock} without the extension).
 */
@DisplayName("Container locks")
class ContainerLocksTests {

    private static final String PREFIX = SharedContainer.KEY_PREFIX;
    private static final InstanceLifecycle PER_METHOD_DEFAULT = new InstanceLifecycle(TestInstance.Lifecycle.PER_METHOD);

    private static Set<String> locks(Class<?> testClass) {
        return locks(testClass, PER_METHOD_DEFAULT);
    }

    private static Set<String> locks(Class<?> testClass, InstanceLifecycle lifecycle) {
        return ContainerLocks.locksOf(testClass, lifecycle).stream()
                .map(lock -> lock.getKey() + " " + lock.getAccessMode()).collect(Collectors.toSet());
    }

    // ---- shapes, from the fields alone

    static class StaticField {
        @Container
        static GenericContainer<?> box;
    }

    static class TwoStaticFields {
        @Container
        static GenericContainer<?> db;
        @Container
        static GenericContainer<?> cache;
    }

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class PerClassInstanceField {
        @Container
        GenericContainer<?> box;
    }

    static class PerTestInstanceField {
        @Container
        GenericContainer<?> box;
    }

    abstract static class Base {
        @Container
        static GenericContainer<?> shared;
    }

    static class FirstSubclass extends Base {
    }

    static class SecondSubclass extends Base {
    }

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class InstanceBase {
        @Container
        GenericContainer<?> own;
    }

    static class FirstInstanceSubclass extends InstanceBase {
    }

    static class SecondInstanceSubclass extends InstanceBase {
    }

    static class Outer {
        @Container
        static GenericContainer<?> box;

        @Nested
        class Inner {
        }
    }

    static final class Holder {
        static final GenericContainer<?> SINGLETON = null;
    }

    static class SingletonUserOne {
        @Measured
        static GenericContainer<?> box = Holder.SINGLETON;
    }

    static class SingletonUserTwo {
        @Measured
        static GenericContainer<?> db = Holder.SINGLETON;
    }

    @SharedLoad
    static class SharedClass {
        @Container
        static GenericContainer<?> box;
    }

    @SharedLoad
    static class SharedOuter {
        @Container
        static GenericContainer<?> box;

        @Nested
        class Inner {
        }
    }

    static class SharedField {
        @Container
        @SharedLoad
        static GenericContainer<?> server;
        @Container
        static GenericContainer<?> db;
    }

    @Test
    @DisplayName("a static @Container field: one read-write lock, named by its class and field")
    void staticField() {
        assertThat(locks(StaticField.class)).containsExactly(PREFIX + StaticField.class.getName() + "#box READ_WRITE");
        assertThat(locks(TwoStaticFields.class)).containsExactlyInAnyOrder(
                PREFIX + TwoStaticFields.class.getName() + "#db READ_WRITE",
                PREFIX + TwoStaticFields.class.getName() + "#cache READ_WRITE");
    }

    @Test
    @DisplayName("an instance field under PER_CLASS: a lock of the class's own; under PER_METHOD none")
    void instanceFields() {
        assertThat(locks(PerClassInstanceField.class)).containsExactly(PREFIX + PerClassInstanceField.class.getName()
                + "/" + PerClassInstanceField.class.getName() + "#box READ_WRITE");
        assertThat(locks(PerTestInstanceField.class)).isEmpty();
        // a run-wide PER_CLASS default makes it shared too
        assertThat(locks(PerTestInstanceField.class, new InstanceLifecycle(TestInstance.Lifecycle.PER_CLASS)))
                .hasSize(1);
    }

    @Test
    @DisplayName("a static field of a superclass: one key for every subclass; an instance one: a key per subclass")
    void superclassFields() {
        assertThat(locks(FirstSubclass.class)).isEqualTo(locks(SecondSubclass.class))
                .containsExactly(PREFIX + Base.class.getName() + "#shared READ_WRITE");
        assertThat(locks(FirstInstanceSubclass.class)).hasSize(1).doesNotContainAnyElementsOf(
                locks(SecondInstanceSubclass.class));
    }

    @Test
    @DisplayName("a @Nested class's tests take the lock of the enclosing class's container")
    void nested() {
        assertThat(locks(Outer.Inner.class)).isEqualTo(locks(Outer.class)).hasSize(1);
    }

    @Test
    @DisplayName("@Measured fields of several classes holding one singleton share one key, by declared type")
    void singleton() {
        assertThat(locks(SingletonUserOne.class)).isEqualTo(locks(SingletonUserTwo.class))
                .containsExactly(PREFIX + "measured:" + GenericContainer.class.getName() + " READ_WRITE");
    }

    @Test
    @DisplayName("@SharedLoad on a class, an enclosing class or a field takes the lock in read mode")
    void sharedLoad() {
        assertThat(locks(SharedClass.class)).containsExactly(PREFIX + SharedClass.class.getName() + "#box READ");
        assertThat(locks(SharedOuter.Inner.class)).containsExactly(PREFIX + SharedOuter.class.getName() + "#box READ");
        assertThat(locks(SharedField.class)).containsExactlyInAnyOrder(
                PREFIX + SharedField.class.getName() + "#server READ",
                PREFIX + SharedField.class.getName() + "#db READ_WRITE");
    }

    static class TwoMeasuredOneShared {
        @Measured
        @SharedLoad
        static GenericContainer<?> server;
        @Measured
        static GenericContainer<?> db;
    }

    @Test
    @DisplayName("two fields of one key, one of them @SharedLoad: one lock, read-write")
    void oneKeyTwoModes() {
        assertThat(locks(TwoMeasuredOneShared.class))
                .containsExactly(PREFIX + "measured:" + GenericContainer.class.getName() + " READ_WRITE");
    }

    @Test
    @DisplayName("@MeasureResources names a provider beside it that answers as ContainerLocks, so that users add "
            + "nothing")
    void measureResourcesCarriesTheProvider() {
        @MeasureResources
        class Annotated {
        }
        List<ResourceLock> found = AnnotationSupport.findRepeatableAnnotations(Annotated.class, ResourceLock.class);
        assertThat(found).hasSize(1);
        assertThat(found.get(0).providers()).hasSize(1);
        Class<? extends ResourceLocksProvider> named = found.get(0).providers()[0];
        assertThat(named.getPackageName()).isEqualTo("io.vitals");
        ResourceLocksProvider provider = ReflectionSupport.newInstance(named);
        assertThat(provider.provideForClass(TwoMeasuredOneShared.class))
                .isEqualTo(new ContainerLocks().provideForClass(TwoMeasuredOneShared.class)).isNotEmpty();
    }

    // ---- JUnit's scheduler with the locks: tests record who runs at the same time

    /** Who is running now, per fixture class and over all of them; the most seen at once. */
    static final class Concurrency {
        static final Map<String, AtomicInteger> RUNNING = new ConcurrentHashMap<>();
        static final Map<String, AtomicInteger> MOST = new ConcurrentHashMap<>();

        static void run(String group, Duration length) throws InterruptedException {
            int now = RUNNING.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet();
            MOST.computeIfAbsent(group, g -> new AtomicInteger()).accumulateAndGet(now, Math::max);
            try {
                Thread.sleep(length.toMillis());
            } finally {
                RUNNING.get(group).decrementAndGet();
            }
        }

        static int most(String group) {
            return MOST.getOrDefault(group, new AtomicInteger()).get();
        }
    }

    /** Every shape on one static container: none of its tests may run at the same time as another. */
    @ResourceLock(providers = ContainerLocks.class)
    static class ExclusiveTestCases {
        @Container
        static GenericContainer<?> box;

        @Test
        void one() throws Exception {
            Concurrency.run("exclusive", Duration.ofMillis(150));
        }

        @Test
        void two() throws Exception {
            Concurrency.run("exclusive", Duration.ofMillis(150));
        }

        @RepeatedTest(2)
        void repeated() throws Exception {
            Concurrency.run("exclusive", Duration.ofMillis(150));
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 2})
        void parameterized(int i) throws Exception {
            Concurrency.run("exclusive", Duration.ofMillis(150));
        }

        @TestFactory
        Stream<DynamicTest> dynamic() {
            return Stream.of(1, 2).map(i -> DynamicTest.dynamicTest("d" + i,
                    () -> Concurrency.run("exclusive", Duration.ofMillis(150))));
        }

        @Nested
        class Inner {
            @Test
            void nested() throws Exception {
                Concurrency.run("exclusive", Duration.ofMillis(150));
            }
        }
    }

    /** A second class on the same container, through the superclass: exclusive with ExclusiveSubclassTwoTestCases. */
    @ResourceLock(providers = ContainerLocks.class)
    abstract static class ExclusiveBase {
        @Container
        static GenericContainer<?> inherited;
    }

    static class ExclusiveSubclassOneTestCases extends ExclusiveBase {
        @Test
        void one() throws Exception {
            Concurrency.run("inherited", Duration.ofMillis(150));
        }

        @Test
        void two() throws Exception {
            Concurrency.run("inherited", Duration.ofMillis(150));
        }
    }

    static class ExclusiveSubclassTwoTestCases extends ExclusiveBase {
        @Test
        void one() throws Exception {
            Concurrency.run("inherited", Duration.ofMillis(150));
        }

        @Test
        void two() throws Exception {
            Concurrency.run("inherited", Duration.ofMillis(150));
        }
    }

    /** Two tests that must be running at once to pass: each waits for the other. */
    abstract static class MeetingTestCases {
        static final Map<String, CountDownLatch> MEETINGS = new ConcurrentHashMap<>();

        static void meet(String group) throws InterruptedException {
            CountDownLatch latch = MEETINGS.computeIfAbsent(group, g -> new CountDownLatch(2));
            latch.countDown();
            assertThat(latch.await(10, TimeUnit.SECONDS)).as("the other test of " + group + " ran at the same time")
                    .isTrue();
        }
    }

    @SharedLoad
    @ResourceLock(providers = ContainerLocks.class)
    static class SharedTestCases extends MeetingTestCases {
        @Container
        static GenericContainer<?> server;

        @Test
        void one() throws Exception {
            meet("shared");
        }

        @Test
        void two() throws Exception {
            meet("shared");
        }
    }

    @ResourceLock(providers = ContainerLocks.class)
    static class PerTestTestCases extends MeetingTestCases {
        @Container
        GenericContainer<?> own;

        @Test
        void one() throws Exception {
            meet("per-test");
        }

        @Test
        void two() throws Exception {
            meet("per-test");
        }
    }

    /** @Isolated is JUnit's: it runs alone, whatever the other locks. */
    @Isolated
    @ResourceLock(providers = ContainerLocks.class)
    static class IsolatedTestCases {
        @Test
        void alone() throws Exception {
            Concurrency.run("isolated", Duration.ofMillis(150));
            assertThat(Concurrency.RUNNING.entrySet().stream().filter(e -> !e.getKey().equals("isolated"))
                    .mapToInt(e -> e.getValue().get()).sum()).as("tests running beside an @Isolated one").isZero();
        }
    }

    private static EngineExecutionResults runConcurrently(Class<?>... classes) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "4")
                .selectors(Stream.of(classes).map(c -> selectClass(c)).toArray(org.junit.platform.engine.DiscoverySelector[]::new))
                .execute();
    }

    @Test
    @DisplayName("under parallel execution, the tests of a shared container never run at the same time; the rest do")
    void parallelExecution() {
        Concurrency.RUNNING.clear();
        Concurrency.MOST.clear();
        MeetingTestCases.MEETINGS.clear();
        EngineExecutionResults results = runConcurrently(ExclusiveTestCases.class, ExclusiveSubclassOneTestCases.class,
                ExclusiveSubclassTwoTestCases.class, SharedTestCases.class, PerTestTestCases.class,
                IsolatedTestCases.class);
        results.testEvents().assertStatistics(stats -> stats.succeeded(18).failed(0));
        assertThat(Concurrency.most("exclusive")).as("most ExclusiveTestCases tests at once").isEqualTo(1);
        assertThat(Concurrency.most("inherited")).as("most tests at once on the superclass's container").isEqualTo(1);
    }
}
