package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.internal.probe.ReadingSource;
import io.vitals.internal.settings.SettingParser;
import io.vitals.internal.settings.SettingsReader;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * The GPU sources a run stacks on its probes, from {@value MeasureResources#GPU_KEY} and the driver's path; the
 * {@link GpuSourceKind kind of source} that builds them.
 */
@API(status = INTERNAL, since = "0.1")
public final class GpuSources {

    /** Whether GPU figures are read, and from where. */
    public enum Mode {
        /** From NVML where its library loads, else from {@code nvidia-smi} where it runs; "no GPU visible" elsewhere. */
        AUTO,
        /** From NVML only. */
        NVML,
        /** From {@code nvidia-smi} only. */
        NVIDIA_SMI,
        /** Never read: GPU figures are "not measured". */
        OFF
    }

    /** The binary, found on the PATH. */
    public static final String DEFAULT_NVIDIA_SMI = "nvidia-smi";

    /** The NVML library, found by the dynamic loader. */
    public static final String DEFAULT_NVML = Nvml.DEFAULT_LIBRARY;

    private GpuSources() {
    }

    /**
     * The sources for the run-wide settings in {@code config}.
     *
     * @throws io.vitals.internal.settings.InvalidSettingException naming the key and value when one is invalid
     */
    public static List<ReadingSource> from(Function<String, Optional<String>> config) {
        SettingsReader reader = new SettingsReader(config);
        Mode mode = reader.read(MeasureResources.GPU_KEY, SettingParser.enumOf(Mode.class), Mode.AUTO);
        if (mode == Mode.OFF) {
            return List.of();
        }
        String library = reader.read(MeasureResources.GPU_NVML_KEY, SettingParser.text(), DEFAULT_NVML);
        String binary = reader.read(MeasureResources.GPU_NVIDIA_SMI_KEY, SettingParser.text(), DEFAULT_NVIDIA_SMI);
        return List.of(GpuSource.forThisHost(driver(mode, library, binary)));
    }

    // NVML first (no process per query), nvidia-smi where the library is missing or finds no driver.
    static GpuDriver driver(Mode mode, String library, String binary) {
        if (mode == Mode.NVIDIA_SMI) {
            return new NvidiaSmi(binary);
        }
        try {
            return Nvml.load(library);
        } catch (IOException e) {
            return mode == Mode.NVML ? new Unanswered("NVML (" + library + ")", e.getMessage())
                    : new Fallback(new NvidiaSmi(binary), "NVML first: " + e.getMessage());
        }
    }

    /**
     * nvidia-smi in place of NVML: until it has answered once, its failures also say why NVML was not used, so that
     * "no GPU visible" names both. Queried under its source's lock.
     */
    private static final class Fallback implements GpuDriver {
        private final GpuDriver driver;
        private final String why;
        private boolean answered;

        Fallback(GpuDriver driver, String why) {
            this.driver = driver;
            this.why = why;
        }

        @Override
        public String name() {
            return driver.name();
        }

        @Override
        public GpuAttribution.Query query(long nowNanos) throws IOException {
            try {
                GpuAttribution.Query query = driver.query(nowNanos);
                answered = true;
                return query;
            } catch (IOException e) {
                throw answered ? e : new IOException(e.getMessage() + "; " + why, e);
            }
        }
    }

    /** A driver that could not be had: its first query tells the source why, which then reads "no GPU visible". */
    private record Unanswered(String name, String reason) implements GpuDriver {
        @Override
        public GpuAttribution.Query query(long nowNanos) throws IOException {
            throw new IOException(reason);
        }
    }
}
