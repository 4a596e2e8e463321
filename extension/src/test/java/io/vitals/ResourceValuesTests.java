package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.testing.UsageFixtures;

import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("ResourceUsage and ResourceSnapshot: values Vitals builds, compared by their figures")
class ResourceValuesTests {

    @ParameterizedTest
    @ValueSource(classes = {ResourceUsage.class, ResourceSnapshot.class})
    @DisplayName("are final classes without a public or protected constructor, not records")
    void notConstructibleByUsers(Class<?> type) {
        assertThat(type.isRecord()).isFalse();
        assertThat(Modifier.isFinal(type.getModifiers())).isTrue();
        assertThat(type.getConstructors()).isEmpty();
        // private, or package-private for the builder beside it in io.vitals
        assertThat(Arrays.stream(type.getDeclaredConstructors()).map(c -> c.getModifiers()))
                .noneMatch(m -> Modifier.isPublic(m) || Modifier.isProtected(m));
    }

    @Test
    @DisplayName("two usages built from the same figures are equal, with equal hash codes")
    void usagesWithEqualFiguresAreEqual() {
        ResourceUsage one = ReportFixtures.usage("tf", 1.0, 40);
        ResourceUsage other = ReportFixtures.usage("tf", 1.0, 40);

        assertThat(one).isNotSameAs(other).isEqualTo(other).hasSameHashCodeAs(other);
        assertThat(one.toBuilder().build()).isEqualTo(one);
    }

    @Test
    @DisplayName("usages that differ in one figure, of any kind, are not equal")
    void usagesDifferingInOneFigureDiffer() {
        ResourceUsage usage = ReportFixtures.usage("tf", 1.0, 40);

        assertThat(List.of(usage.toBuilder().blockWrite(usage.blockWrite().plus(DataSize.ofBytes(1))).build(),
                usage.toBuilder().peakPids(usage.peakPids() + 1).build(),
                usage.toBuilder().peakMemoryHighWaterMark(Optional.empty()).build(),
                usage.toBuilder().phases(List.of()).build(),
                usage.toBuilder().gpu(GpuUsage.notMeasured()).build(),
                usage.toBuilder().after(usage.after().toBuilder().pids(usage.after().pids() + 1).build()).build()))
                .allSatisfy(changed -> assertThat(changed).isNotEqualTo(usage));
        assertThat(ReportFixtures.usage("tf", 1.0, 40)).isNotEqualTo(ReportFixtures.usage("tf", 1.1, 40));
    }

    @Test
    @DisplayName("snapshots with equal figures are equal; one figure apart, they are not")
    void snapshotEquality() {
        ResourceSnapshot snapshot = ReportFixtures.usage("tf", 1.0, 40).before();

        assertThat(snapshot.toBuilder().build()).isEqualTo(snapshot).hasSameHashCodeAs(snapshot);
        assertThat(snapshot.toBuilder().swap(Optional.of(DataSize.ofMiB(1))).build()).isNotEqualTo(snapshot);
        assertThat(snapshot.toBuilder().oomKills(snapshot.oomKills() + 1).build()).isNotEqualTo(snapshot);
    }

    @Test
    @DisplayName("a usage keeps the phases it was built with, whatever happens to the list afterwards")
    void phasesAreCopied() {
        ResourceUsage phase = UsageFixtures.usage().build();
        List<ResourceUsage.Phase> phases = new ArrayList<>(List.of(new ResourceUsage.Phase("load", Duration.ZERO,
                phase)));
        ResourceUsage usage = UsageFixtures.usage().phases(phases).build();

        phases.add(new ResourceUsage.Phase("train", Duration.ofSeconds(1), phase));

        assertThat(usage.phases()).extracting(ResourceUsage.Phase::name).containsExactly("load");
    }

    @Test
    @DisplayName("a figure left unset fails the build, naming the figure")
    void unsetFigureIsNamed() {
        assertThatNullPointerException().isThrownBy(() -> UsageFixtures.usage().blockWrite(null).build())
                .withMessage("blockWrite");
        assertThatNullPointerException().isThrownBy(() -> ResourceSnapshot.builder().build())
                .withMessage("takenAt");
    }

    @Test
    @DisplayName("without a GPU source, a usage says its GPU figures were not measured")
    void gpuDefaultsToNotMeasured() {
        assertThat(UsageFixtures.usage().build().gpu()).isEqualTo(GpuUsage.notMeasured());
    }

    @Test
    @DisplayName("toString names the figures, sums up the timeline and names the phases")
    void readableToString() {
        ResourceUsage usage = ReportFixtures.usage("tf", 1.0, 40);

        assertThat(usage.toString()).startsWith("ResourceUsage[container=tf, image=tensorflow/tensorflow:2.16.1, ")
                .contains("blockWrite=" + usage.blockWrite() + ",", "peakPids=" + usage.peakPids() + ",",
                        "timeline=40 points of 40 samples every PT0.05S",
                        "phases=[load, train, evaluate]")
                .doesNotContain("before=", "TimelinePoint");
        assertThat(usage.before().toString()).startsWith("ResourceSnapshot[takenAt=2026-03-01T10:15:30Z, ")
                .contains("memoryLimit=Optional[" + ReportFixtures.LIMIT + "]", "swap=Optional.empty");
    }

    /**
     * equals and hashCode are written out (ResourceUsage's, and SnapshotFigures' hashCode), so a figure added to the
     * class but not to them would go unseen: every figure, found by reflection, is changed alone through the builder,
     * and the result must differ.
     */
    @TestFactory
    @DisplayName("equals sees every figure: each one changed alone makes a usage or snapshot differ")
    Stream<DynamicTest> equalsSeesEveryField() {
        ResourceUsage usage = ReportFixtures.usage("tf", 1.0, 40);
        ResourceSnapshot snapshot = usage.before();
        return Stream.concat(
                figures(ResourceUsage.class).map(figure -> DynamicTest.dynamicTest("ResourceUsage." + figure.name(),
                        () -> assertChangingAloneDiffers(usage, usage.toBuilder(), figure))),
                figures(ResourceSnapshot.class).map(figure -> DynamicTest.dynamicTest("ResourceSnapshot."
                        + figure.name(), () -> assertChangingAloneDiffers(snapshot, snapshot.toBuilder(), figure))));
    }

    /** A figure: the name of its field, accessor and builder method, its type, and how to read it from the value. */
    private record Figure(String name, Class<?> type, Type genericType, Reader reader) {
    }

    private interface Reader {
        Object read(Object value) throws Exception;
    }

    /**
     * The figures of {@code type}: its fields, where a field holding a package-private record of figures
     * (ResourceSnapshot's SnapshotFigures) stands for the record's components, each read through the accessor of the same name.
     */
    private static Stream<Figure> figures(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields()).filter(field -> !Modifier.isStatic(field.getModifiers()))
                .flatMap(field -> field.getType().isRecord()
                        && !Modifier.isPublic(field.getType().getModifiers())
                        ? Arrays.stream(field.getType().getRecordComponents())
                                .map(c -> new Figure(c.getName(), c.getType(), c.getGenericType(),
                                        value -> value.getClass().getMethod(c.getName()).invoke(value)))
                        : Stream.of(new Figure(field.getName(), field.getType(), field.getGenericType(), value -> {
                            field.setAccessible(true);
                            return field.get(value);
                        })));
    }

    private static void assertChangingAloneDiffers(Object value, Object builder, Figure figure) throws Exception {
        Object other = otherThan(figure.reader().read(value), figure.genericType());
        builder.getClass().getMethod(figure.name(), figure.type()).invoke(builder, other);
        Object changed = builder.getClass().getMethod("build").invoke(builder);

        assertThat(changed).isNotEqualTo(value);
        assertThat(changed.hashCode()).isNotEqualTo(value.hashCode());
    }

    /** A value of {@code type} that differs from {@code value}. */
    private static Object otherThan(Object value, Type type) {
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (raw == long.class) {
            return (long) value + 1;
        } else if (raw == String.class) {
            return value + "-other";
        } else if (raw == Instant.class) {
            return ((Instant) value).plusNanos(1);
        } else if (raw == Duration.class) {
            return ((Duration) value).plusNanos(1);
        } else if (raw == DataSize.class) {
            return ((DataSize) value).plus(DataSize.ofBytes(1));
        } else if (raw == Percentage.class) {
            return Percentage.of(((Percentage) value).value() + 1);
        } else if (raw.isEnum()) {
            return Arrays.stream(raw.getEnumConstants()).filter(constant -> constant != value).findFirst()
                    .orElseThrow();
        } else if (raw == Optional.class) {
            Optional<?> optional = (Optional<?>) value;
            Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
            return optional.isPresent() ? Optional.empty() : Optional.of(otherThan(neutral(element), element));
        } else if (raw == List.class) {
            List<?> list = (List<?>) value;
            return list.isEmpty() ? List.of(new ResourceUsage.Phase("p", Duration.ZERO, UsageFixtures.usage()
                    .build())) : List.of();
        } else if (raw == ResourceSnapshot.class) {
            ResourceSnapshot snapshot = (ResourceSnapshot) value;
            return snapshot.toBuilder().pids(snapshot.pids() + 1).build();
        } else if (raw == PeakMemory.class) {
            PeakMemory peak = (PeakMemory) value;
            return new PeakMemory(peak.value(), peak.at().plusNanos(1), peak.method(), peak.samplingInterval());
        } else if (raw == Timeline.class) {
            Timeline timeline = (Timeline) value;
            return new Timeline(timeline.points(), timeline.samplingInterval(), timeline.samples() + 1,
                    timeline.readErrors());
        } else if (raw == GpuUsage.class) {
            return value.equals(GpuUsage.notMeasured()) ? GpuUsage.unavailable("other") : GpuUsage.notMeasured();
        } else if (raw == PressureStall.class) {
            PressureStall stall = (PressureStall) value;
            return new PressureStall(stall.some().plusNanos(1), stall.full());
        } else if (raw == SourcedValues.class) {
            SourcedFigures figures = (SourcedFigures) value;
            SourcedFigures.Builder other = SourcedFigures.builder();
            for (Metric metric : Metric.sourced()) {
                figures.value(metric).ifPresentOrElse(v -> other.set(metric, v),
                        () -> other.unavailable(metric, figures.reason(metric).orElseThrow()));
            }
            return other.set(Metric.MAJOR_PAGE_FAULTS, figures.read(Metric.MAJOR_PAGE_FAULTS) + 1).build();
        }
        throw new AssertionError("no different value known for a figure of type " + type + ": add one here");
    }

    /** Some value of {@code type}, for an empty optional to be given one. */
    private static Object neutral(Type type) {
        if (type == DataSize.class) {
            return DataSize.ZERO;
        } else if (type == PressureStall.class) {
            return new PressureStall(Duration.ZERO, Duration.ZERO);
        }
        throw new AssertionError("no value known for an optional figure of type " + type + ": add one here");
    }
}
