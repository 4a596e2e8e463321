package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("CgroupFiles")
class CgroupFilesTests {

    private static final Path SOURCE = Path.of("/sys/fs/cgroup/test/some.file");

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Nested
    @DisplayName("single values")
    class SingleValues {

        @ParameterizedTest(name = "\"{0}\" reads as {1}")
        @CsvSource(delimiter = '|', value = {
                "'42\n'           | 42",
                "'0'              | 0",
                "'  268435456  \n'| 268435456",
                "'9223372036854771712\n' | 9223372036854771712"})
        void readsANumber(String content, long expected) throws IOException {
            Path file = write("memory.usage_in_bytes", content);
            assertThat(CgroupFiles.readLong(file)).isEqualTo(expected);
            assertThat(CgroupFiles.readOptionalLong(file)).hasValue(expected);
        }

        @ParameterizedTest(name = "\"{0}\" reads as empty")
        @ValueSource(strings = {"max\n", "max", "", "\n", "   \n"})
        void maxOrEmptyIsEmpty(String content) throws IOException {
            assertThat(CgroupFiles.readOptionalLong(write("pids.max", content))).isEmpty();
        }

        @Test
        @DisplayName("a missing file is empty for optional reads")
        void missingOptional() throws IOException {
            assertThat(CgroupFiles.readOptionalLong(dir.resolve("memory.swap.current"))).isEmpty();
            assertThat(CgroupFiles.readLimit(dir.resolve("memory.max"))).isEmpty();
        }

        @Test
        @DisplayName("a required number that is max or empty is an error naming the file")
        void requiredButEmpty() throws IOException {
            Path file = write("memory.current", "\n");
            assertThatThrownBy(() -> CgroupFiles.readLong(file)).isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString());
            Path max = write("cpuacct.usage", "max\n");
            assertThatThrownBy(() -> CgroupFiles.readLong(max)).hasMessageContaining(max.toString())
                    .hasMessageContaining("'max'");
        }

        @Test
        @DisplayName("garbage is an error naming the file and the text")
        void garbage() throws IOException {
            Path file = write("memory.current", "12ab\n");
            assertThatThrownBy(() -> CgroupFiles.readOptionalLong(file)).isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("'12ab'")
                    .hasCauseInstanceOf(NumberFormatException.class);
        }
    }

    @Nested
    @DisplayName("limits")
    class Limits {

        @ParameterizedTest(name = "\"{0}\" means no limit")
        @ValueSource(strings = {"9223372036854771712\n", "9223372036854775807\n", "max\n", "4611686018427387904"})
        void unlimited(String content) throws IOException {
            assertThat(CgroupFiles.readLimit(write("memory.limit_in_bytes", content))).isEmpty();
        }

        @ParameterizedTest(name = "\"{0}\" is a limit of {1}")
        @CsvSource({"'268435456\n', 268435456", "'0\n', 0", "4611686018427387903, 4611686018427387903"})
        void limited(String content, long expected) throws IOException {
            assertThat(CgroupFiles.readLimit(write("memory.max", content))).isEqualTo(OptionalLong.of(expected));
        }
    }

    @Test
    @DisplayName("a value read with Keys: ABSENT is the fallback, empty, or no limit; other values are themselves")
    void absentValues() {
        assertThat(CgroupFiles.orElse(CgroupFiles.ABSENT, 7)).isEqualTo(7);
        assertThat(CgroupFiles.orElse(0, 7)).isZero();
        assertThat(CgroupFiles.optional(CgroupFiles.ABSENT)).isEmpty();
        assertThat(CgroupFiles.optional(-1)).hasValue(-1);
        assertThat(CgroupFiles.limit(CgroupFiles.ABSENT)).isEmpty();
        assertThat(CgroupFiles.limit(CgroupFiles.UNLIMITED_THRESHOLD)).isEmpty();
        long largest = CgroupFiles.UNLIMITED_THRESHOLD - 1;
        assertThat(CgroupFiles.limit(largest)).hasValue(largest);
        assertThat(new CgroupFiles.Keys("a", "b").newValues()).containsExactly(CgroupFiles.ABSENT, CgroupFiles.ABSENT);
    }
}
