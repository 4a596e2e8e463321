package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * What this process knows of the machine the host probe reads: the kernel release and whether it runs as root.
 * Both decide a row of the exactness table (docs/metrics.md): the kernel whether {@code memory.peak} can be reset,
 * the user whether the marks may be written at all.
 *
 * @param kernelRelease e.g. {@code 6.1.0-27-cloud-amd64}; empty where neither procfs nor the JVM tells
 * @param root whether the effective user id is 0
 */
@API(status = INTERNAL, since = "0.1")
public record HostFacts(Optional<String> kernelRelease, boolean root) {

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");
    private static final Pattern EFFECTIVE_UID = Pattern.compile("(?m)^Uid:\\s+\\d+\\s+(\\d+)");

    /**
     * Reads {@code sys/kernel/osrelease} and {@code self/status} under {@code procRoot} ({@code /proc} on a real
     * host, a fixture tree in tests). Without them the JVM's {@code os.version} and {@code user.name} stand in:
     * the same facts on Linux, where the host probe runs.
     */
    public static HostFacts read(Path procRoot) {
        Optional<String> release = readFile(procRoot.resolve("sys/kernel/osrelease")).map(String::strip)
                .filter(s -> !s.isEmpty()).or(() -> Optional.ofNullable(System.getProperty("os.version")));
        boolean root = readFile(procRoot.resolve("self/status")).map(EFFECTIVE_UID::matcher).filter(Matcher::find)
                .map(m -> m.group(1).equals("0"))
                .orElseGet(() -> "root".equals(System.getProperty("user.name")));
        return new HostFacts(release, root);
    }

    private static Optional<String> readFile(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether the release is {@code major.minor} or later; false when it is unknown or unparsable. */
    public boolean kernelAtLeast(int major, int minor) {
        return kernelRelease.map(VERSION::matcher).filter(Matcher::find).map(m -> {
            int releaseMajor = Integer.parseInt(m.group(1));
            return releaseMajor > major || releaseMajor == major && Integer.parseInt(m.group(2)) >= minor;
        }).orElse(false);
    }
}
