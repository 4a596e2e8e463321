package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ProcessState: whether /proc/<pid>/stat shows a process on its way out")
class ProcessStateTests {

    private static final Path SOURCE = Path.of("/proc/19364/stat");

    /** A container's init process ({@code sleep infinity}), recorded on Linux 6.18: flags 0x400100, 1 thread. */
    private static final String SLEEPING = "19364 (sleep) S 19345 19364 19364 0 -1 4194560 1022 0 4 0 3 3 0 0 20 0 "
            + "1 0 38727 2560000 351 18446744073709551615 94132445544448 94132445562377 140727307942160 0 0 0 0 0 0 "
            + "1 0 0 17 1 0 0 0 0 0 94132445576464 94132445577728 94132521381888 140727307947864 140727307947879 "
            + "140727307947879 140727307948009 0\n";

    private static ProcessState parse(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return ProcessState.parse(bytes, bytes.length, SOURCE);
    }

    /** {@link #SLEEPING} with another state letter, flags and thread count. */
    private static String with(char state, long flags, long threads) {
        String[] fields = SLEEPING.split(" ");
        fields[2] = String.valueOf(state);
        fields[8] = Long.toString(flags);
        fields[19] = Long.toString(threads);
        return String.join(" ", fields);
    }

    @Test
    @DisplayName("a sleeping init process is alive; its fields are read from the recorded line")
    void alive() throws IOException {
        ProcessState state = parse(SLEEPING);
        assertThat(state).isEqualTo(new ProcessState('S', 4194560, 1));
        assertThat(state.exiting()).isFalse();
    }

    @Test
    @DisplayName("PF_EXITING in any running or sleeping state is exiting: a killed init waiting for its namespace")
    void exitingFlag() throws IOException {
        assertThat(parse(with('S', 4194560 | ProcessState.PF_EXITING, 1)).exiting()).isTrue();
        assertThat(parse(with('R', 4194564, 1)).exiting()).isTrue();
        assertThat(parse(with('D', 4194564, 1)).describe()).isEqualTo("exiting (state D, PF_EXITING)");
    }

    @Test
    @DisplayName("a zombie (Z) or dead (X) process has exited")
    void zombie() throws IOException {
        assertThat(parse(with('Z', 4194564, 1)).exiting()).isTrue();
        assertThat(parse(with('Z', 4194564, 1)).describe()).isEqualTo("a zombie (state Z), not yet reaped");
        assertThat(parse(with('X', 0, 1)).exiting()).isTrue();
    }

    @Test
    @DisplayName("a leader that left with pthread_exit while other threads run is alive")
    void leaderWithThreads() throws IOException {
        assertThat(parse(with('Z', 4194564, 3)).exiting()).isFalse();
    }

    @Test
    @DisplayName("a command name with spaces and parentheses does not shift the fields")
    void oddCommandName() throws IOException {
        assertThat(parse(SLEEPING.replace("(sleep)", "(a) b (c)")).state()).isEqualTo('S');
        assertThat(parse(with('Z', 4, 1).replace("(sleep)", "(x) Z 1 (y)")).exiting()).isTrue();
    }

    @Test
    @DisplayName("a short or garbled line fails naming the file")
    void malformed() {
        assertThatThrownBy(() -> parse("19364 (sleep) S 1 2 3\n")).isInstanceOf(IOException.class)
                .hasMessageContaining("/proc/19364/stat").hasMessageContaining("at least 20 fields");
        assertThatThrownBy(() -> parse("garbage")).isInstanceOf(IOException.class)
                .hasMessageContaining("/proc/19364/stat");
        assertThatThrownBy(() -> parse(SLEEPING.replace(" 4194560 ", " 0x42 "))).isInstanceOf(IOException.class)
                .hasMessageContaining("'0x42'");
    }
}
