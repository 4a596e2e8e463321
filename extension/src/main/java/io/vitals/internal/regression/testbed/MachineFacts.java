package io.vitals.internal.regression.testbed;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

import com.github.dockerjava.api.model.Info;
import org.apiguardian.api.API;
import org.testcontainers.DockerClientFactory;

/**
 * What the machine that runs the containers is, learned once per run: from the engine ({@code docker info}: its
 * CPUs, memory, kernel and version, which hold for remote engines too) and, where the engine is this machine's,
 * the CPU model from {@code /proc/cpuinfo}. A fact that cannot be learned is empty, and a testbed then simply does
 * not record it.
 *
 * @param cpuModel this machine's CPU model ({@code /proc/cpuinfo}); used only for containers the host probe reads
 * @param engineCpus the CPUs the engine reports ({@code NCPU}: its CPU affinity, so an engine confined to one CPU
 *     says 1)
 * @param memoryGiB the engine machine's memory, rounded to whole GiB
 * @param kernel the engine machine's kernel release
 * @param engineVersion the engine's version, e.g. {@code 20.10.24}
 */
@API(status = INTERNAL, since = "0.1")
public record MachineFacts(Optional<String> cpuModel, OptionalInt engineCpus, OptionalInt memoryGiB,
        Optional<String> kernel, Optional<String> engineVersion) {

    private static final double GIB = 1024.0 * 1024 * 1024;

    public static MachineFacts none() {
        return new MachineFacts(Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
                Optional.empty());
    }

    /**
     * The facts of the engine Testcontainers reaches and of this machine; an engine that does not answer leaves its
     * facts empty (the run goes on: a testbed is a label, not a precondition).
     */
    public static MachineFacts read(Path procRoot) {
        Optional<String> cpuModel = cpuModel(procRoot);
        try {
            Info info = DockerClientFactory.instance().getInfo();
            return new MachineFacts(cpuModel,
                    info.getNCPU() == null || info.getNCPU() < 1 ? OptionalInt.empty() : OptionalInt.of(info.getNCPU()),
                    info.getMemTotal() == null ? OptionalInt.empty()
                            : OptionalInt.of((int) Math.round(info.getMemTotal() / GIB)),
                    Optional.ofNullable(info.getKernelVersion()), Optional.ofNullable(info.getServerVersion()));
        } catch (RuntimeException e) {
            return new MachineFacts(cpuModel, OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
                    Optional.empty());
        }
    }

    /** {@link #read} on first use, then the same facts: one {@code docker info} a run, and none without a history. */
    public static Supplier<MachineFacts> lazily(Path procRoot) {
        return new Supplier<>() {
            private MachineFacts facts;

            @Override
            public synchronized MachineFacts get() {
                if (facts == null) {
                    facts = read(procRoot);
                }
                return facts;
            }
        };
    }

    static Optional<String> cpuModel(Path procRoot) {
        try {
            return Files.readAllLines(procRoot.resolve("cpuinfo")).stream()
                    .filter(line -> line.toLowerCase(Locale.ROOT).startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip().replaceAll("\\s+", " "))
                    .filter(model -> !model.isEmpty()).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
