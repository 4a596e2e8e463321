package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AxisLabelsTests {

    @Test
    @DisplayName("seconds read as String.format's %.1f s below ten and %.0f s from ten, away from exact halves")
    void secondsAsFormatted() {
        for (int i = 0; i <= 20_000; i++) {
            double seconds = i * 0.00731;
            double scaled = seconds < 10 ? seconds * 10 : seconds;
            if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) {
                continue; // a label half-way between two may round either way
            }
            assertThat(AxisLabels.seconds(seconds)).as("%s s", seconds)
                    .isEqualTo(String.format(Locale.ROOT, seconds < 10 ? "%.1f s" : "%.0f s", seconds));
        }
        assertThat(AxisLabels.seconds(0)).isEqualTo("0.0 s");
        assertThat(AxisLabels.seconds(9.96)).isEqualTo("10.0 s");
        assertThat(AxisLabels.seconds(125.4)).isEqualTo("125 s");
    }

    @Test
    @DisplayName("whole numbers read as String.format's %.0f")
    void wholeAsFormatted() {
        for (int i = 0; i <= 20_000; i++) {
            double value = i * 0.377;
            if (Math.abs(value - Math.floor(value) - 0.5) < 1e-6) {
                continue;
            }
            assertThat(AxisLabels.whole(value)).as("%s", value).isEqualTo(String.format(Locale.ROOT, "%.0f", value));
        }
    }
}
