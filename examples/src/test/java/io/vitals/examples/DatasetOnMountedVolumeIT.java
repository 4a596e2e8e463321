package io.vitals.examples;

import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;

import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.junit.jupiter.Container;

/**
 * Training that reads its dataset from a host directory bind-mounted read-only, as a job reading a shared dataset
 * volume would ({@code -v dir:/data:ro}). A data-preparation container writes the file (the workload's {@code --write-dataset}, 200,000
 * examples, about 25 MiB) before the tests; the training container reads all of it once per epoch, two epochs.
 *
 * <p>The {@code blockRead} budget says: the dataset comes off the disk once; the second epoch must be served from
 * the page cache. 40 MiB sits between one pass (25 MiB) and two (50 MiB).
 *
 * <p>What block I/O accounting can and cannot see, and what this test does about it:
 * <ul>
 *   <li>A page-cache hit never reaches the disk, so it is free: a file the host (or the writer container) just
 *       wrote is read from memory and counts as 0 bytes. The test therefore first evicts the file from the page
 *       cache ({@code dd iflag=nocache count=0}, i.e. {@code posix_fadvise(DONTNEED)}; it only drops clean pages
 *       of that one file, nothing else), so that the first epoch is a real, cold read.</li>
 *   <li>cgroup v1 cannot attribute buffered writes at all (writeback runs in kernel threads, outside the
 *       container's cgroup), which is why this example budgets reads, not the dataset write.</li>
 *   <li>On the host this was written on, the v1 blkio controller reports no bytes whatsoever
 *       ({@code blkio.throttle.io_service_bytes} is only "Total 0", even for O_DIRECT), so {@code blockRead} reads
 *       0 there and the budget is a ceiling that cannot trip on that host; on a host that accounts block I/O it
 *       is the real check.</li>
 * </ul>
 * So the test does not rely on {@code blockRead} to prove the read happened. It uses two other honest signals:
 * the workload's own output (two epochs over the whole file), and the container's page cache, which grows by the
 * size of the file: pages that were evicted and come back, charged to this container, were read from the disk by
 * it. That growth shows the cold read happened exactly once (the second epoch adds nothing), which is what the
 * {@code blockRead} budget is meant to guard where the kernel accounts it.
 */
@MeasureResources
class DatasetOnMountedVolumeIT {

    static final long EXAMPLES = 200_000;
    static final long RECORD_BYTES = 4 + 32 * 4; // label + 32 float features
    static final long HEADER_BYTES = 24;

    static final Path DATA_DIR = createDataDir();

    @Container
    static final TensorFlowContainer tf = mount(new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0),
            DATA_DIR, "/data", AccessMode.ro);

    private static Path createDataDir() {
        try {
            return Files.createTempDirectory("vitals-dataset-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code docker run -v host:target:ro}. Testcontainers' {@code withFileSystemBind} does the same in the end,
     * but first checks, once per JVM, that the engine can mount host files, by starting a container of its "tiny
     * image" ({@code alpine:3.17}); on a host that cannot pull it (no registry, as where this was written) that
     * check spends two minutes retrying the pull. Setting the bind on the create command skips the check.
     */
    static TensorFlowContainer mount(TensorFlowContainer container, Path host, String target, AccessMode mode) {
        return container.withCreateContainerCmdModifier(cmd -> {
            HostConfig hostConfig = cmd.getHostConfig();
            List<Bind> binds = new ArrayList<>();
            if (hostConfig.getBinds() != null) {
                binds.addAll(Arrays.asList(hostConfig.getBinds()));
            }
            binds.add(new Bind(host.toString(), new Volume(target), mode));
            hostConfig.withBinds(binds);
        });
    }

    @BeforeAll
    static void prepareDataset() throws Exception {
        // the data-preparation job: same image, the directory mounted read-write, gone when done
        try (TensorFlowContainer writer = mount(new TensorFlowContainer(), DATA_DIR, "/data", AccessMode.rw)) {
            writer.start();
            writer.train("--write-dataset", "/data/train.bin", "--examples", String.valueOf(EXAMPLES));
        }
        // load TensorFlow once in the training container, so its libraries are in the page cache before the test
        // and the test's page-cache growth is the dataset alone
        tf.train("--warmup");
        System.out.println("dataset: " + DataSize.ofBytes(Files.size(DATA_DIR.resolve("train.bin"))) + " in "
                + DATA_DIR + ", mounted read-only at /data");
    }

    @AfterAll
    static void removeDataset() throws IOException {
        try (Stream<Path> files = Files.walk(DATA_DIR)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    @ResourceBudget(blockRead = "40MiB")
    void twoEpochsReadTheDatasetFromDiskOnce(ResourceMonitor monitor) throws Exception {
        DataSize file = DataSize.ofBytes(Files.size(DATA_DIR.resolve("train.bin")));
        assertThat(file.toBytes()).isEqualTo(HEADER_BYTES + EXAMPLES * RECORD_BYTES);

        ExecResult evict = tf.execInContainer("dd", "if=/data/train.bin", "iflag=nocache", "count=0",
                "status=none");
        assertThat(evict.getExitCode()).as("evicting the file from the page cache: " + evict.getStderr())
                .isZero();
        ResourceSnapshot before = monitor.snapshot();
        TrainingResult result = tf.train("--data-file", "/data/train.bin", "--epochs", "2", "--batch-size", "500",
                "--preprocess-cost", "2000");
        ResourceSnapshot after = monitor.snapshot();

        ResourceUsage usage = monitor.usage();
        DataSize pageCacheGrowth = after.pageCache().saturatingMinus(before.pageCache());
        DataSize readByWorkload = DataSize.ofBytes(file.toBytes() * result.epochs().size());
        ExampleSupport.printEpochs("mounted-dataset", result);
        System.out.println("mounted-dataset: the workload read " + readByWorkload + " (" + result.epochs().size()
                + " epochs x " + file + "); page cache of the container grew by " + pageCacheGrowth
                + "; blkio counted " + usage.blockRead() + " read (budget 40MiB)"
                + (usage.blockRead().toBytes() == 0 ? ", i.e. nothing: this host does not account block I/O" : ""));

        assertThat(result.epochs()).as("epochs over the mounted file").hasSize(2);
        assertThat(result.epochs().get(1).loss()).isLessThan(result.epochs().get(0).loss());
        assertThat(pageCacheGrowth.toBytes()).as("page cache growth: the cold read of the file, charged here")
                .isGreaterThanOrEqualTo(file.toBytes() * 9 / 10)
                .as("page cache growth: only one pass came from the disk")
                .isLessThan(file.toBytes() * 3 / 2);
        // judged where blkio counts reads (cgroup v2, or v1 with a block device); skipped, not passed, where it counted 0 B
        assertThat(usage).whereMeasurable().hasBlockReadAtMost("40MiB");
    }
}
