package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MedianTests {

    @Test
    @DisplayName("selection gives exactly the value a sort gives: random, sorted, reversed, constant, with repeats")
    void sameAsSorting() {
        Random random = new Random(12);
        for (int trial = 0; trial < 2_000; trial++) {
            int count = 1 + random.nextInt(trial < 1_000 ? 12 : 3_000);
            double[] values = new double[count + random.nextInt(5)];
            int kind = trial % 5;
            for (int i = 0; i < values.length; i++) {
                values[i] = kind == 0 ? random.nextGaussian() * 1e6 : kind == 1 ? i : kind == 2 ? -i
                        : kind == 3 ? 7 : random.nextInt(4);
            }
            double[] sorted = Arrays.copyOf(values, count);
            Arrays.sort(sorted);
            double expected = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;

            assertThat(Median.of(values.clone(), count)).as("trial %d, %d values", trial, count).isEqualTo(expected);
        }
    }
}
