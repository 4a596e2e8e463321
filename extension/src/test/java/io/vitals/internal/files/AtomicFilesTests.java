package io.vitals.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.OptionalLong;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The temporary files a JVM killed between write and rename leaves, and their removal by a later JVM. The kill itself
 * is {@code JvmKilledMidRunIT}'s: twenty SIGKILLs over a real run, each followed by the next run when it left one.
 */
@DisplayName("AtomicFiles")
class AtomicFilesTests {

    private static long deadPid;

    @TempDir
    Path dir;

    @BeforeAll
    static void aProcessThatHasEnded(@TempDir Path scratch) throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        deadPid = ended.pid();
        // this JVM has written through AtomicFiles before the tests' files are made, as a run has when it cleans up
        AtomicFiles.write(scratch.resolve("first.json"), "{}");
    }

    private Path left(String target, long pid, Instant modified) throws IOException {
        Path temp = dir.resolve("." + target + "." + pid + "-1.tmp");
        Files.writeString(temp, "half");
        Files.setLastModifiedTime(temp, FileTime.from(modified));
        return temp;
    }

    private static Instant beforeThisJvm() {
        return ProcessHandle.current().info().startInstant().orElseThrow().minusSeconds(60);
    }

    @ParameterizedTest(name = "\"{0}\": {1}")
    @CsvSource({
            ".index.json.1234-56.tmp,        1234",
            ".run.7-1.tmp,                   7",
            ".history.jsonl.previous.9-3.tmp, 9",
            "index.json.1234-56.tmp,         ",
            ".index.json.tmp,                ",
            ".index.json.12-.tmp,            ",
            ".index.json.x-1.tmp,            ",
            ".index.json.1234-56,            ",
    })
    @DisplayName("reads the writer's process id from a temporary file's name, and nothing from other names")
    void writerPid(String name, Long pid) {
        assertThat(AtomicFiles.writerPid(name)).isEqualTo(pid == null ? OptionalLong.empty() : OptionalLong.of(pid));
    }

    @Test
    @DisplayName("a write leaves only the target")
    void writeLeavesOnlyTheTarget() throws IOException {
        AtomicFiles.write(dir.resolve("sub").resolve("a.json"), "{}");
        assertThat(dir.resolve("sub/a.json")).hasContent("{}");
        try (var files = Files.list(dir.resolve("sub"))) {
            assertThat(files).hasSize(1);
        }
    }

    @Test
    @DisplayName("removes a temporary file of an ended process written before this JVM wrote, and only that")
    void removesWhatAKilledJvmLeft() throws IOException {
        Path killed = left("index.json", deadPid, beforeThisJvm());
        Path ours = left("index.json", ProcessHandle.current().pid(), beforeThisJvm());
        Path running = left("index.json", ProcessHandle.current().parent().orElseThrow().pid(), beforeThisJvm());
        // a writer in another PID namespace, writing right now
        Path fresh = left("summary.md", deadPid, Instant.now());
        Path report = Files.writeString(dir.resolve("index.json"), "{}");

        assertThat(AtomicFiles.removeLeftovers(dir)).isEqualTo(1);

        assertThat(killed).doesNotExist();
        assertThat(ours).exists();
        assertThat(running).exists();
        assertThat(fresh).exists();
        assertThat(report).exists();
    }

    @Test
    @DisplayName("for one target, removes its own and its previous copy's temporary files, not another file's")
    void oneTarget() throws IOException {
        Path history = left("history.jsonl", deadPid, beforeThisJvm());
        Path previous = left("history.jsonl.previous", deadPid, beforeThisJvm());
        Path baseline = left("baseline.json", deadPid, beforeThisJvm());

        assertThat(AtomicFiles.removeLeftovers(dir, "history.jsonl")).isEqualTo(2);

        assertThat(history).doesNotExist();
        assertThat(previous).doesNotExist();
        assertThat(baseline).exists();
    }

    @Test
    @DisplayName("a missing directory holds nothing to remove, and says so without an exception")
    void missingDirectory() {
        assertThat(AtomicFiles.removeLeftovers(dir.resolve("none"))).isZero();
    }

    @Test
    @DisplayName("StoredFile.replace takes away what a JVM killed while replacing the same file left")
    void storedFileReplace() throws IOException {
        Path file = Files.writeString(dir.resolve("baseline.json"), "{\"old\":1}");
        Path killed = left("baseline.json", deadPid, beforeThisJvm());

        assertThat(StoredFile.replace(file, "{\"new\":1}".getBytes())).isTrue();

        assertThat(killed).doesNotExist();
        assertThat(StoredFile.previous(file)).hasContent("{\"old\":1}");
    }
}
