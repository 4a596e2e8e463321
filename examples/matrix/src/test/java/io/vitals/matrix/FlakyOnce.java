package io.vitals.matrix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fails a test the first time it runs in a build where {@code matrix.flaky} names a directory, then lets it pass. */
final class FlakyOnce {

    private FlakyOnce() {
    }

    static void failTheFirstTime(String test) throws IOException {
        String dir = System.getProperty("matrix.flaky");
        if (dir == null) {
            return;
        }
        Path marker = Path.of(dir, test + ".failed-once");
        if (!Files.exists(marker)) {
            Files.createDirectories(marker.getParent());
            Files.writeString(marker, "");
            throw new AssertionError(test + " fails on its first attempt (matrix.flaky)");
        }
    }
}
