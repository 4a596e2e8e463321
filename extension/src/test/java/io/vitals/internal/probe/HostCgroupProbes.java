package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.stream.Stream;

/** Opens the host probe over a recorded or hand-written cgroup tree, with a fixed clock, for the probe's tests. */
final class HostCgroupProbes {

    /** The wall time every reading of {@link #open} carries. */
    static final Instant NOW = Instant.parse("2026-11-29T15:59:17Z");

    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private HostCgroupProbes() {
    }

    static HostCgroupProbe open(Path root, long pid) throws ProbeException {
        return HostCgroupProbe.open("db", pid, new CgroupLocator(root), root.resolve("proc"), CLOCK);
    }

    /**
     * Descriptors this JVM holds now on {@code path} or, for a directory, on the files below it: unlike a count of
     * all of the JVM's descriptors, not moved by what other threads or a cleaner open and close meanwhile. Linux only,
     * as the host probe is.
     */
    static long descriptorsOn(Path path) throws IOException {
        Path real = path.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).startsWith(real);
                } catch (IOException e) {
                    return false; // closed since the listing (the directory stream's own, for one)
                }
            }).count();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }
}
