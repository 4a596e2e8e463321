package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ContainerFaultError;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The first line of a {@link ContainerFaultError} is what a stack trace, a test report's summary and an IDE's tree
 * show: it must be the fault's description, never an empty line.
 */
class FaultMessageTests {

    private static final String NL = System.lineSeparator();
    private static final String OOM = "container 'tf' was OOM-killed at 12.4 s: limit 512.0 MiB, peak 512.0 MiB "
            + "(sampled), 1 process killed; the container stopped with exit code 137";
    private static final String EXIT = "container 'db' stopped during the test (noticed at 13.0 s): state exited, "
            + "exit code 1";

    private static Judgement.FaultEvidence evidence(String description, List<String> breaches) {
        return new Judgement.FaultEvidence(description, breaches,
                "     12.0s  MEM 511.9 MiB   CPU 98.0%     PIDS 4" + NL, List.of("Killed"));
    }

    @Test
    @DisplayName("one fault: the message opens with its description, then budgets, samples and log")
    void firstLineIsTheDescription() {
        String message = Judgement.faultMessage(List.of(evidence(OOM, List.of("peakMemory 512.0 MiB > 400MiB"))));

        assertThat(message.lines().toList()).containsExactly(OOM, "  - peakMemory 512.0 MiB > 400MiB",
                "Last samples:", "     12.0s  MEM 511.9 MiB   CPU 98.0%     PIDS 4",
                "Last 1 lines of the container's log:", "  | Killed");
    }

    @Test
    @DisplayName("two faults: the first description opens the message, a blank line separates the containers")
    void twoFaults() {
        String message = Judgement.faultMessage(List.of(evidence(OOM, List.of()), evidence(EXIT, List.of())));

        List<String> lines = message.lines().toList();
        assertThat(lines.get(0)).isEqualTo(OOM);
        assertThat(lines).containsSubsequence("  | Killed", "", EXIT);
        assertThat(message).doesNotEndWith(NL);
    }

    @Test
    @DisplayName("a description that starts with a line break still gives a first line with the description")
    void leadingLineBreakInTheDescription() {
        String message = Judgement.faultMessage(List.of(evidence(NL + OOM, List.of())));

        assertThat(message).startsWith(OOM + NL);
    }

    @Test
    @DisplayName("the error drops blank lines before the message: a raw stack trace opens with the fault")
    void stackTraceOpensWithTheFault() {
        ContainerFaultError error = new ContainerFaultError(NL + NL + OOM + NL + "Last samples:");
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));

        assertThat(error.getMessage()).startsWith(OOM);
        assertThat(trace.toString().lines().findFirst()).hasValue(ContainerFaultError.class.getName() + ": " + OOM);
    }
}
