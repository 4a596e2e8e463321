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
     * Descriptors this JVM holds on {@code file} now: unlike {@link #openDescriptors}, not moved by what other threads
     * or a cleaner open and close meanwhile. Linux only, as the host probe is.
     */
    static long descriptorsOn(Path file) throws IOException {
        Path real = file.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(real);
                } catch (IOException e) {
                    return false; // closed since the listing (the directory stream's own, for one)
                }
            }).count();
        }
    }

    /** Descriptors this JVM holds now; Linux only, as the host probe is. */
    static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count() - 1; // the directory stream's own descriptor
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
