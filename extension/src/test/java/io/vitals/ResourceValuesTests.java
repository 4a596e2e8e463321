package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.vitals.internal.report.ReportFixtures;
import io.vitals.testing.UsageFixtures;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("ResourceUsage and ResourceSnapshot: values Vitals builds, compared by their figures")
class ResourceValuesTests {

    @ParameterizedTest
    @ValueSource(classes = {ResourceUsage.class, ResourceSnapshot.class})
    @DisplayName("are final classes without a public constructor, not records")
    void notConstructibleByUsers(Class<?> type) {
        assertThat(type.isRecord()).isFalse();
        assertThat(Modifier.isFinal(type.getModifiers())).isTrue();
        assertThat(type.getConstructors()).isEmpty();
        assertThat(Arrays.stream(type.getDeclaredConstructors()).map(c -> c.getModifiers()))
                .allMatch(Modifier::isPrivate);
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
}
