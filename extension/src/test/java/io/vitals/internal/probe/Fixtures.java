package io.vitals.internal.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Locates the fixture trees under {@code src/test/resources/fixtures} (see the README there). Public so that the
 * sampling tests can read the recorded container through a real probe.
 */
public final class Fixtures {

    public static final String V1_ID = "15f62d528b7a1c372ba73447647597445276bb2b93ad7a01447b6d181eed7108";
    public static final long V1_PID = 19685;
    public static final String V2_ID = "3f2c9e0d8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e";
    public static final long V2_PID = 4242;

    private Fixtures() {
    }

    public static Path path(String relative) {
        URL url = Fixtures.class.getResource("/fixtures/" + relative);
        if (url == null) {
            throw new IllegalStateException("No fixture " + relative);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Path v1Root() {
        return path("cgroup-v1-hybrid");
    }

    public static Path v2Root() {
        return path("cgroup-v2-systemd");
    }

    public static Path v2Dir(Path root) {
        return root.resolve("sys/fs/cgroup/system.slice/docker-" + V2_ID + ".scope");
    }

    public static Path v1Dir(Path root, String controller) {
        return root.resolve("sys/fs/cgroup/" + controller + "/docker/" + V1_ID);
    }

    /** Copies a fixture tree into {@code target}, so a test may change or delete files. */
    public static Path copy(Path source, Path target) {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path destination = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(file, destination);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }
}
