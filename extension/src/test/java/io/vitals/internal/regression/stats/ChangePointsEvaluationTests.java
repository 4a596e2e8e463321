package io.vitals.internal.regression.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How often the change point names the injected build: histories of 20 builds around 100 with normal noise, one
 * +10 % step at a random build of 2..18 (each side keeps two builds), alpha 0.05, minimum effect 5 %. Prints its
 * figures; the assertion holds the bar (the right build in at least 9 of 10 histories) at CV 2 %.
 */
@DisplayName("change points: detection rate of one injected +10 % step")
class ChangePointsEvaluationTests {

    private static final int BUILDS = 20;
    private static final double STEP_PERCENT = 10;

    private final ChangePoints changePoints = new ChangePoints(0.05, 5, 0);

    /** What was found in {@code histories} histories. */
    record Rate(int histories, int right, int onlyRight, int withinOne, int wrongOrExtra) {

        String describe() {
            return String.format("right build %d/%d (the only change point: %d), within one build %d, with a wrong"
                    + " or extra change point %d", right, histories, onlyRight, withinOne, wrongOrExtra);
        }
    }

    Rate rate(double cv, int histories, long firstSeed) {
        int right = 0;
        int onlyRight = 0;
        int withinOne = 0;
        int wrongOrExtra = 0;
        for (int h = 0; h < histories; h++) {
            Random random = new Random(firstSeed + h);
            int step = 2 + random.nextInt(BUILDS - 3);
            List<ChangePoints.ChangePoint> found = changePoints.find(ChangePointsTests.series(random, BUILDS, cv,
                    step, STEP_PERCENT));
            if (found.stream().anyMatch(p -> p.index() == step)) {
                right++;
                if (found.size() == 1) {
                    onlyRight++;
                }
            }
            if (found.stream().anyMatch(p -> Math.abs(p.index() - step) <= 1)) {
                withinOne++;
            }
            if (found.stream().anyMatch(p -> p.index() != step)) {
                wrongOrExtra++;
            }
        }
        return new Rate(histories, right, onlyRight, withinOne, wrongOrExtra);
    }

    @Test
    @DisplayName("CV 2 %: the right build in at least 9 of 10 histories; CV 5 % printed")
    void tenHistories() {
        Rate two = rate(0.02, 10, 2026_12_03L);
        Rate five = rate(0.05, 10, 2026_12_03L);
        System.out.println("10 histories, CV 2 %: " + two.describe());
        System.out.println("10 histories, CV 5 %: " + five.describe());
        for (double cv : new double[] {0.01, 0.02, 0.03, 0.05}) {
            System.out.printf("2000 histories, CV %.0f %%: %s%n", cv * 100, rate(cv, 2000, 1000).describe());
        }
        int noisy = 0;
        for (int seed = 0; seed < 2000; seed++) {
            if (!changePoints.find(ChangePointsTests.series(new Random(seed), BUILDS, 0.03, BUILDS, 0)).isEmpty()) {
                noisy++;
            }
        }
        System.out.printf("2000 histories of noise, CV 3 %%: %d with a change point%n", noisy);
        for (double cv : new double[] {0.02, 0.05}) {
            int n = 0;
            for (int seed = 0; seed < 2000; seed++) {
                if (!changePoints.find(ChangePointsTests.series(new Random(seed), BUILDS, cv, BUILDS, 0)).isEmpty()) {
                    n++;
                }
            }
            System.out.printf("2000 histories of noise, CV %.0f %%: %d with a change point%n", cv * 100, n);
        }

        for (int n : new int[] {20, 100, 300, 1000}) {
            List<Double> noise = ChangePointsTests.series(new Random(n), n, 0.03, n, 0);
            List<Double> steps = ChangePointsTests.series(new Random(n), n, 0.02, n / 3, 20);
            for (int warm = 0; warm < 3; warm++) {
                changePoints.find(noise);
                changePoints.find(steps);
            }
            long start = System.nanoTime();
            changePoints.find(noise);
            long middle = System.nanoTime();
            changePoints.find(steps);
            long end = System.nanoTime();
            System.out.printf("%d builds: %.2f ms on noise, %.2f ms with a step%n", n, (middle - start) / 1e6,
                    (end - middle) / 1e6);
        }

        assertThat(two.right()).isGreaterThanOrEqualTo(9);
    }
}
