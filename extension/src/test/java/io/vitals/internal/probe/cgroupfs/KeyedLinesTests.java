package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.internal.probe.Fixtures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("KeyedLines: flat-keyed files")
class KeyedLinesTests {

    private static final Path SOURCE = Path.of("/sys/fs/cgroup/test/some.file");

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    @DisplayName("parses key value lines, tolerating blank lines and extra spaces")
    void parses() throws IOException {
        Map<String, Long> values = KeyedLines.parseFlatKeyed(
                "usage_usec 8123456\nuser_usec   7000000\n\n  system_usec 1123456  \n", SOURCE);
        assertThat(values).containsOnly(Map.entry("usage_usec", 8123456L), Map.entry("user_usec", 7000000L),
                Map.entry("system_usec", 1123456L));
    }

    @Test
    @DisplayName("reads the recorded v1 memory.stat")
    void recordedMemoryStat() throws IOException {
        Map<String, Long> stat = KeyedLines.readFlatKeyed(
                Fixtures.v1Dir(Fixtures.v1Root(), "memory").resolve("memory.stat"));
        assertThat(stat).containsEntry("total_inactive_file", 41992192L).containsEntry("total_cache", 41996288L)
                .containsEntry("total_rss", 208896L).containsEntry("hierarchical_memory_limit", 268435456L)
                .hasSize(42);
    }

    @Test
    @DisplayName("reading named keys from bytes: wanted keys only, absent ones marked, the buffer's length honoured")
    void keyedFromBytes() throws IOException {
        byte[] text = "anon 104857600\nfile 41943040\ninactive_file 31457280\nGARBAGE AFTER LENGTH"
                .getBytes(StandardCharsets.US_ASCII);
        int length = text.length - "GARBAGE AFTER LENGTH".length();
        CgroupFiles.Keys keys = new CgroupFiles.Keys("inactive_file", "anon", "swap");
        long[] values = keys.newValues();
        KeyedLines.parseKeyed(text, length, keys, values, SOURCE);
        assertThat(values).containsExactly(31457280L, 104857600L, CgroupFiles.ABSENT);
        assertThatThrownBy(() -> KeyedLines.parseKeyed(text, text.length, keys, values, SOURCE))
                .isInstanceOf(IOException.class).hasMessageContaining("'key value'");
    }

    @Test
    @DisplayName("named keys: a value that is no number names the key, but values of keys not asked for go unparsed")
    void keyedValuesParsedOnlyWhenWanted() throws IOException {
        byte[] text = "anon 1\nfile lots\n".getBytes(StandardCharsets.US_ASCII);
        long[] values = new long[1];
        KeyedLines.parseKeyed(text, text.length, new CgroupFiles.Keys("anon"), values, SOURCE);
        assertThat(values).containsExactly(1L);
        assertThatThrownBy(() -> KeyedLines.parseKeyed(text, text.length, new CgroupFiles.Keys("file"), values,
                SOURCE)).isInstanceOf(IOException.class).hasMessageContaining("'file'").hasMessageContaining("'lots'")
                .hasMessageContaining(SOURCE.toString());
    }

    @Test
    @DisplayName("an empty or missing file is an empty map")
    void emptyOrMissing() throws IOException {
        assertThat(KeyedLines.readFlatKeyed(write("memory.events", ""))).isEmpty();
        assertThat(KeyedLines.readFlatKeyed(dir.resolve("absent"))).isEmpty();
    }

    @ParameterizedTest(name = "\"{0}\" is rejected")
    @ValueSource(strings = {"usage_usec\n", "usage_usec 1 2\n", "some avg10=0.00 total=3\n"})
    void wrongShape(String content) throws IOException {
        Path file = write("cpu.stat", content);
        assertThatThrownBy(() -> KeyedLines.readFlatKeyed(file)).isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("'key value'");
    }

    @Test
    @DisplayName("a value that is no number is rejected naming key and file")
    void notANumber() throws IOException {
        Path file = write("memory.stat", "anon 1\nfile lots\n");
        assertThatThrownBy(() -> KeyedLines.readFlatKeyed(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("'file'").hasMessageContaining("'lots'")
                .hasMessageContaining(file.toString());
    }
}
