package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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

    @Nested
    @DisplayName("flat-keyed files")
    class FlatKeyed {

        @Test
        @DisplayName("parses key value lines, tolerating blank lines and extra spaces")
        void parses() throws IOException {
            Map<String, Long> values = CgroupFiles.parseFlatKeyed(
                    "usage_usec 8123456\nuser_usec   7000000\n\n  system_usec 1123456  \n", SOURCE);
            assertThat(values).containsOnly(Map.entry("usage_usec", 8123456L), Map.entry("user_usec", 7000000L),
                    Map.entry("system_usec", 1123456L));
        }

        @Test
        @DisplayName("reads the recorded v1 memory.stat")
        void recordedMemoryStat() throws IOException {
            Map<String, Long> stat = CgroupFiles.readFlatKeyed(
                    Fixtures.v1Dir(Fixtures.v1Root(), "memory").resolve("memory.stat"));
            assertThat(stat).containsEntry("total_inactive_file", 41992192L).containsEntry("total_cache", 41996288L)
                    .containsEntry("total_rss", 208896L).containsEntry("hierarchical_memory_limit", 268435456L)
                    .hasSize(42);
        }

        @Test
        @DisplayName("reading named keys from bytes: wanted keys only, absent ones marked, the buffer's length honoured")
        void keyedFromBytes() throws IOException {
            byte[] text = "anon 104857600\nfile 41943040\ninactive_file 31457280\nGARBAGE AFTER LENGTH"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            int length = text.length - "GARBAGE AFTER LENGTH".length();
            CgroupFiles.Keys keys = new CgroupFiles.Keys("inactive_file", "anon", "swap");
            long[] values = keys.newValues();
            CgroupFiles.parseKeyed(text, length, keys, values, SOURCE);
            assertThat(values).containsExactly(31457280L, 104857600L, CgroupFiles.ABSENT);
            assertThatThrownBy(() -> CgroupFiles.parseKeyed(text, text.length, keys, values, SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining("'key value'");
        }

        @Test
        @DisplayName("an empty or missing file is an empty map")
        void emptyOrMissing() throws IOException {
            assertThat(CgroupFiles.readFlatKeyed(write("memory.events", ""))).isEmpty();
            assertThat(CgroupFiles.readFlatKeyed(dir.resolve("absent"))).isEmpty();
        }

        @ParameterizedTest(name = "\"{0}\" is rejected")
        @ValueSource(strings = {"usage_usec\n", "usage_usec 1 2\n", "some avg10=0.00 total=3\n"})
        void wrongShape(String content) throws IOException {
            Path file = write("cpu.stat", content);
            assertThatThrownBy(() -> CgroupFiles.readFlatKeyed(file)).isInstanceOf(IOException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("'key value'");
        }

        @Test
        @DisplayName("a value that is no number is rejected naming key and file")
        void notANumber() throws IOException {
            Path file = write("memory.stat", "anon 1\nfile lots\n");
            assertThatThrownBy(() -> CgroupFiles.readFlatKeyed(file)).isInstanceOf(IOException.class)
                    .hasMessageContaining("'file'").hasMessageContaining("'lots'")
                    .hasMessageContaining(file.toString());
        }
    }

    @Nested
    @DisplayName("pressure (PSI)")
    class Pressure {

        @Test
        @DisplayName("reads some and full totals in microseconds")
        void someAndFull() throws IOException {
            long[] totals = CgroupFiles.parsePressure("some avg10=0.13 avg60=0.05 avg300=0.01 total=45255\n"
                    + "full avg10=0.06 avg60=0.02 avg300=0.00 total=40122\n", SOURCE);
            assertThat(totals).containsExactly(45255, 40122);
        }

        @Test
        @DisplayName("a missing full line (older kernels' cpu.pressure) reads as zero")
        void someOnly() throws IOException {
            assertThat(CgroupFiles.parsePressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=17\n", SOURCE))
                    .containsExactly(17, 0);
        }

        @Test
        @DisplayName("a missing file is empty (PSI disabled)")
        void missing() throws IOException {
            assertThat(CgroupFiles.readPressure(dir.resolve("cpu.pressure"))).isEmpty();
        }

        @Test
        @DisplayName("an unknown line or a bad total names the file")
        void errors() {
            assertThatThrownBy(() -> CgroupFiles.parsePressure("most total=1\n", SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
            assertThatThrownBy(() -> CgroupFiles.parsePressure("some avg10=0.00 total=x\n", SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
        }
    }

    @Nested
    @DisplayName("blkio (v1)")
    class BlkioV1 {

        @Test
        @DisplayName("counts Read and Write, ignores Sync, Async, Discard and both Total lines")
        void readWrite() throws IOException {
            String text = "8:0 Read 4096000\n8:0 Write 1228800\n8:0 Sync 5324800\n8:0 Async 0\n"
                    + "8:0 Discard 0\n8:0 Total 5324800\n8:16 Read 1000\n8:16 Write 24\n8:16 Total 1024\n"
                    + "Total 5325824\n";
            assertThat(CgroupFiles.parseBlkioV1(text, SOURCE)).containsExactly(4097000, 1228824);
        }

        @ParameterizedTest(name = "\"{0}\" is nothing")
        @ValueSource(strings = {"Total 0\n", "Total 0", "", "\n"})
        void loneTotal(String text) throws IOException {
            assertThat(CgroupFiles.parseBlkioV1(text, SOURCE)).containsExactly(0, 0);
        }

        @Test
        @DisplayName("a bad byte count names the file")
        void badCount() {
            assertThatThrownBy(() -> CgroupFiles.parseBlkioV1("8:0 Read many\n", SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
        }
    }

    @Nested
    @DisplayName("io.stat (v2)")
    class IoStatV2 {

        @Test
        @DisplayName("sums rbytes and wbytes over every device")
        void multiDevice() throws IOException {
            String text = "8:0 rbytes=90430464 wbytes=299008000 rios=8950 wios=1252 dbytes=0 dios=0\n"
                    + "253:0 rbytes=1048576 wbytes=2097152 rios=10 wios=20 dbytes=7 dios=1\n";
            assertThat(CgroupFiles.parseIoStatV2(text, SOURCE)).containsExactly(91479040, 301105152);
        }

        @Test
        @DisplayName("an empty io.stat (no I/O yet) is zero")
        void empty() throws IOException {
            assertThat(CgroupFiles.parseIoStatV2("", SOURCE)).containsExactly(0, 0);
        }

        @Test
        @DisplayName("a bad value names the file")
        void bad() {
            assertThatThrownBy(() -> CgroupFiles.parseIoStatV2("8:0 rbytes=x wbytes=1\n", SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString())
                    .hasMessageContaining("rbytes=x");
        }
    }

    @Nested
    @DisplayName("net/dev")
    class NetDev {

        @Test
        @DisplayName("the recorded file: eth0 only, lo excluded")
        void recorded() throws IOException {
            Path file = Fixtures.v1Root().resolve("proc/" + Fixtures.V1_PID + "/net/dev");
            assertThat(CgroupFiles.parseNetDev(Files.readString(file), file)).containsExactly(696, 0);
        }

        @Test
        @DisplayName("sums every interface except lo")
        void sumsAllButLoopback() throws IOException {
            Path file = Fixtures.v2Root().resolve("proc/" + Fixtures.V2_PID + "/net/dev");
            assertThat(CgroupFiles.parseNetDev(Files.readString(file), file)).containsExactly(124456, 67432);
        }

        @Test
        @DisplayName("numbers glued to the colon (large counters on old kernels) still parse")
        void gluedToColon() throws IOException {
            String text = "Inter-|   Receive |  Transmit\n face |bytes packets|bytes packets\n"
                    + "  eth0:12345678901 1 0 0 0 0 0 0 98765 2 0 0 0 0 0 0\n";
            assertThat(CgroupFiles.parseNetDev(text, SOURCE)).containsExactly(12345678901L, 98765);
        }

        @Test
        @DisplayName("a truncated line names the file")
        void truncated() {
            assertThatThrownBy(() -> CgroupFiles.parseNetDev("  eth0: 1 2 3\n", SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
        }
    }
}
