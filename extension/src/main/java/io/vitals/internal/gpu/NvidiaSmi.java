package io.vitals.internal.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code nvidia-smi} binary with one query and returns its output. One short process per query: the CSV
 * queries take milliseconds with persistence mode (netdata #10362: 0.007 s against 0.4 s for {@code -q -x}), and
 * Vitals asks at most every 500 ms.
 */
final class NvidiaSmi implements GpuDriver {

    /** A query that runs longer (a hung driver, nvidia_gpu_exporter #89) loses that sample, not the test. */
    private static final long TIMEOUT_SECONDS = 5;

    private final String binary;

    NvidiaSmi(String binary) {
        this.binary = binary;
    }

    /** The binary as configured: "nvidia-smi", or a path. */
    @Override
    public String name() {
        return binary;
    }

    @Override
    public GpuAttribution.Query query(long nowNanos) throws IOException {
        try {
            return new GpuAttribution.Query(nowNanos, NvidiaSmiOutput.devices(queryGpus()),
                    NvidiaSmiOutput.processes(queryProcesses()), binary);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** {@code nvidia-smi --query-gpu=…} */
    String queryGpus() throws IOException {
        return run("--query-gpu=" + NvidiaSmiOutput.GPU_FIELDS);
    }

    /** {@code nvidia-smi --query-compute-apps=…} */
    String queryProcesses() throws IOException {
        return run("--query-compute-apps=" + NvidiaSmiOutput.APP_FIELDS);
    }

    private String run(String query) throws IOException {
        List<String> command = new ArrayList<>(List.of(binary, query, "--format=csv,noheader,nounits"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream out = process.getInputStream()) {
            process.getOutputStream().close();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(binary + " " + query + " did not answer within " + TIMEOUT_SECONDS + " s");
            }
            String text = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IOException(binary + " " + query + " exited with " + process.exitValue() + ": "
                        + text.strip());
            }
            return text;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + binary + " answered", e);
        }
    }
}
