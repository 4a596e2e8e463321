package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The three fields of {@code /proc/<pid>/stat} that say whether a process is on its way out: its state letter, its
 * flags and its thread count (fields 3, 9 and 20 of proc(5)).
 *
 * <p>A container's init process that is killed, or that ends, first runs through {@code do_exit} with
 * {@code PF_EXITING} set, in state R, S or D; as a PID namespace's init it then waits in
 * {@code zap_pid_ns_processes} until every other process of the namespace is reaped, including a
 * {@code docker exec}'d one. So when a test's {@code execInContainer} returns because the container was killed,
 * its init process may still be "alive", with every cgroup file still readable, for several milliseconds more
 * (seen on Linux 6.18: R, then S with the flag for 3 ms, then Z, then gone). Then it is a zombie (Z) until the
 * shim reaps it.
 *
 * @param state the state letter (R, S, D, Z, X, ...)
 * @param flags the kernel's {@code PF_*} flags
 * @param threads the threads of its thread group
 */
record ProcessState(char state, long flags, long threads) {

    /** {@code PF_EXITING} of include/linux/sched.h: set by {@code exit_signals()} at the start of do_exit. */
    static final long PF_EXITING = 0x4;

    // fields after the command name, counted from the state (field 3): flags is field 9, num_threads field 20
    private static final int FLAGS_TOKEN = 9 - 3;
    private static final int THREADS_TOKEN = 20 - 3;

    /**
     * Whether the whole process is exiting or has exited. A thread-group leader that left with
     * {@code pthread_exit} also shows Z and the flag while its other threads run on, so a leader with more
     * threads than itself counts as alive: the rest of a killed group leaves within microseconds.
     */
    boolean exiting() {
        boolean leaderDone = state == 'Z' || state == 'X' || state == 'x' || (flags & PF_EXITING) != 0;
        return leaderDone && threads <= 1;
    }

    /** A phrase for a reason: "exiting (state S, PF_EXITING)" or "a zombie (state Z)". */
    String describe() {
        if (state == 'Z') {
            return "a zombie (state Z), not yet reaped";
        }
        return "exiting (state " + state + ((flags & PF_EXITING) != 0 ? ", PF_EXITING" : "") + ")";
    }

    /**
     * Parses the bytes of {@code /proc/<pid>/stat}. The command name (field 2) is in parentheses and may itself
     * hold spaces and parentheses, so the fields are counted from the last ')'.
     */
    static ProcessState parse(byte[] text, int length, Path source) throws IOException {
        int close = -1;
        for (int i = length - 1; i >= 0; i--) {
            if (text[i] == ')') {
                close = i;
                break;
            }
        }
        if (close < 0 || close + 2 >= length) {
            throw malformed(text, length, source);
        }
        char state = (char) text[close + 2];
        long flags = -1;
        long threads = -1;
        int token = 0;
        int i = close + 2;
        while (i < length && token <= THREADS_TOKEN) {
            int end = i;
            while (end < length && text[end] != ' ' && text[end] != '\n') {
                end++;
            }
            if (token == FLAGS_TOKEN) {
                flags = digits(text, i, end, source);
            } else if (token == THREADS_TOKEN) {
                threads = digits(text, i, end, source);
            }
            token++;
            i = end + 1;
        }
        if (threads < 0) {
            throw malformed(text, length, source);
        }
        return new ProcessState(state, flags, threads);
    }

    private static long digits(byte[] text, int from, int to, Path source) throws IOException {
        if (from >= to) {
            throw new IOException("Expected a number in " + source + " at column " + from + " but found nothing");
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = text[i] - '0';
            if (digit < 0 || digit > 9) {
                throw new IOException("Expected a number in " + source + " at column " + from + " but found '"
                        + new String(text, from, to - from, StandardCharsets.US_ASCII) + "'");
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static IOException malformed(byte[] text, int length, Path source) {
        return new IOException("Unexpected content in " + source + " (expected 'pid (comm) state ppid ...' with at "
                + "least 20 fields): '" + new String(text, 0, Math.min(length, 200), StandardCharsets.US_ASCII)
                .strip() + "'");
    }
}
