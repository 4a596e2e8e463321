package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("BlockIoLines: per-device block I/O files")
class BlockIoLinesTests {

    private static final Path SOURCE = Path.of("/sys/fs/cgroup/test/some.file");

    private static final String BLKIO = "8:0 Read 4096000\n8:0 Write 1228800\n8:0 Sync 5324800\n8:0 Async 0\n"
            + "8:0 Discard 0\n8:0 Total 5324800\n8:16 Read 1000\n8:16 Write 24\n8:16 Total 1024\n"
            + "Total 5325824\n";

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Nested
    @DisplayName("blkio (v1)")
    class BlkioV1 {

        @Test
        @DisplayName("counts Read and Write, ignores Sync, Async, Discard and both Total lines")
        void readWrite() throws IOException {
            assertThat(BlockIoLines.parseBlkioV1(BLKIO, SOURCE)).containsExactly(4097000, 1228824);
        }

        @ParameterizedTest(name = "\"{0}\" is nothing")
        @ValueSource(strings = {"Total 0\n", "Total 0", "", "\n"})
        void loneTotal(String text) throws IOException {
            assertThat(BlockIoLines.parseBlkioV1(text, SOURCE)).containsExactly(0, 0);
            assertThat(BlockIoLines.hasDeviceLines(bytes(text), text.length())).isFalse();
        }

        @Test
        @DisplayName("device lines are told from the lone Total line")
        void deviceLines() {
            assertThat(BlockIoLines.hasDeviceLines(bytes(BLKIO), BLKIO.length())).isTrue();
            assertThat(BlockIoLines.hasDeviceLines(bytes("8:0 Read 1\n"), "8:0 Read".length())).isFalse();
        }

        @Test
        @DisplayName("the byte variant honours the buffer's length and starts from zero")
        void byteVariant() throws IOException {
            String text = "8:0 Read 10\n8:0 Write 20\n8:0 Read 999\n";
            long[] readWrite = {7, 7};
            BlockIoLines.parseBlkioV1(bytes(text), "8:0 Read 10\n8:0 Write 20\n".length(), readWrite, SOURCE);
            assertThat(readWrite).containsExactly(10, 20);
        }

        @Test
        @DisplayName("a bad byte count names the file")
        void badCount() {
            assertThatThrownBy(() -> BlockIoLines.parseBlkioV1("8:0 Read many\n", SOURCE))
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
            assertThat(BlockIoLines.parseIoStatV2(text, SOURCE)).containsExactly(91479040, 301105152);
        }

        @Test
        @DisplayName("an empty io.stat (no I/O yet) is zero")
        void empty() throws IOException {
            assertThat(BlockIoLines.parseIoStatV2("", SOURCE)).containsExactly(0, 0);
        }

        @Test
        @DisplayName("a bad value names the file")
        void bad() {
            assertThatThrownBy(() -> BlockIoLines.parseIoStatV2("8:0 rbytes=x wbytes=1\n", SOURCE))
                    .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString())
                    .hasMessageContaining("rbytes=x");
        }
    }

    @ParameterizedTest(name = "op \"{0}\" adds to read {1} and write {2}")
    @CsvSource({"Read, 5, 0", "read, 5, 0", "Write, 0, 5", "write, 0, 5", "Sync, 0, 0", "Total, 0, 0", "'', 0, 0"})
    @DisplayName("docker's rule for an op: r/R is a read, w/W a write, anything else is ignored")
    void addByOp(String op, long read, long write) {
        long[] readWrite = new long[2];
        BlockIoLines.addByOp(readWrite, op, 5);
        assertThat(readWrite).containsExactly(read, write);
    }
}
