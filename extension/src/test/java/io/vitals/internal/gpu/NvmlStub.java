package io.vitals.internal.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles {@code src/test/c/nvml-stub.c} into a {@code libnvidia-ml.so.1} that JNA loads like the driver's, so
 * that the NVML binding is tested through real native calls and real structure layouts. Needs gcc, which this
 * project's machines have (JNI); without it the test fails, saying so, rather than passing untested.
 */
final class NvmlStub {

    private static final Path SOURCE = Paths.get("src", "test", "c", "nvml-stub.c");

    private NvmlStub() {
    }

    /**
     * @param pidFile where the stub reads the host PID it lists as holding 1234 MiB on its first device
     * @return the library's path
     */
    static Path compile(Path dir, Path pidFile) throws IOException, InterruptedException {
        Path library = dir.resolve("libnvidia-ml.so.1");
        List<String> command = List.of("gcc", "-shared", "-fPIC", "-O1", "-Wall", "-Werror",
                "-DPID_FILE=\"" + pidFile.toAbsolutePath() + "\"", "-o", library.toString(),
                SOURCE.toAbsolutePath().toString());
        Process gcc;
        try {
            gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("gcc is needed to build the NVML stub (" + e.getMessage() + ")", e);
        }
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gcc.waitFor(60, TimeUnit.SECONDS) || gcc.exitValue() != 0) {
            throw new AssertionError("gcc could not build the NVML stub: " + output);
        }
        Files.writeString(pidFile, "", StandardCharsets.US_ASCII, java.nio.file.StandardOpenOption.CREATE);
        return library;
    }
}
