package io.vitals.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.internal.metric.Metric;
import io.vitals.testing.UsageFixtures;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Memory growth on a window too short for a trend: one rule, which budgets and every table writer read. */
class MeasurabilityTrendTests {

    /** {@code points} samples {@code every} apart, memory climbing 1 MiB a sample. */
    static ResourceUsage ramp(int points, Duration every) {
        List<TimelinePoint> timeline = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            timeline.add(new TimelinePoint(every.multipliedBy(i), 10, DataSize.ofMiB(100 + i), 5, Duration.ZERO,
                    DataSize.ofBytes(0), DataSize.ofBytes(0), DataSize.ofBytes(0), DataSize.ofBytes(0)));
        }
        return UsageFixtures.usage().wallTime(every.multipliedBy(Math.max(0, points - 1)))
                .timeline(new Timeline(timeline, every, points, 0)).build();
    }

    @Test
    @DisplayName("a 557 ms ramp is too short to estimate a trend; 10 s with 20 points or more is long enough")
    void tooShort() {
        ResourceUsage subSecond = ramp(12, Duration.ofMillis(50));
        assertThat(Measurability.trendTooShort(Metric.MEMORY_GROWTH, subSecond)).hasValueSatisfying(why ->
                assertThat(why).contains(Measurability.TOO_SHORT_FOR_TREND).contains("12 points over 0.55 s"));
        // long, but too few points for the median of slopes to stand
        assertThat(Measurability.trendTooShort(Metric.MEMORY_GROWTH, ramp(5, Duration.ofSeconds(5)))).isPresent();
        // many points, but not 10 s
        assertThat(Measurability.trendTooShort(Metric.MEMORY_GROWTH, ramp(199, Duration.ofMillis(50)))).isPresent();
        assertThat(Measurability.trendTooShort(Metric.MEMORY_GROWTH, ramp(201, Duration.ofMillis(50)))).isEmpty();
        assertThat(Measurability.trendTooShort(Metric.MEMORY_GROWTH, ramp(20, Duration.ofMillis(600)))).isEmpty();
        // no other figure has a window rule
        assertThat(Measurability.trendTooShort(Metric.PEAK_MEMORY, subSecond)).isEmpty();
        // the host could measure it: the JSON files and vitals.prom keep the fitted slope
        assertThat(Measurability.reason(Metric.MEMORY_GROWTH, subSecond)).isEmpty();
    }

    @Test
    @DisplayName("a memory growth budget on a window too short is not measurable: passed with the mark, failed if strict")
    void budgetNotMeasurable() {
        ResourceUsage subSecond = ramp(12, Duration.ofMillis(50));
        Limit limit = Limit.parse(Metric.MEMORY_GROWTH, "10MiB/min");
        BudgetResult judged = BudgetEvaluator.evaluate(limit, subSecond);
        // the raw slope (1 MiB per 50 ms = 1.2 GiB/min) would have breached it
        assertThat(judged.status()).isEqualTo(BudgetStatus.BREACHED);

        BudgetResult lenient = Measurability.apply(judged, subSecond, false);
        assertThat(lenient.status()).isEqualTo(BudgetStatus.NOT_MEASURABLE);
        assertThat(lenient.passed()).isTrue();
        assertThat(lenient.note()).hasValueSatisfying(n -> assertThat(n).contains(Measurability.TOO_SHORT_FOR_TREND));
        assertThat(Measurability.apply(judged, subSecond, true).passed()).isFalse();

        ResourceUsage longRamp = ramp(240, Duration.ofMillis(50));
        assertThat(Measurability.apply(BudgetEvaluator.evaluate(limit, longRamp), longRamp, false).status())
                .isEqualTo(BudgetStatus.BREACHED);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 4, 5, 9, 15, 99, 550, 995, 1_005, 9_999, 61_234, 3_600_000})
    @DisplayName("the window's span reads as String.format(\"%.2f s\") would write it, half up")
    void spanInSeconds(long millis) {
        assertThat(Measurability.seconds(Duration.ofMillis(millis)))
                .isEqualTo(String.format(Locale.ROOT, "%.2f s", millis / 1000.0));
    }
}
