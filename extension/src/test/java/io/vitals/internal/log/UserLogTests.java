package io.vitals.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The tests run with slf4j-simple bound, which writes to the System.err of the moment: what a user with an SLF4J
 * provider sees, under the logger names docs/configuration.md gives.
 */
class UserLogTests {

    @Test
    void warningsGoToTheNamedLoggerAtWarn() {
        List<String> lines = capturingErr(() -> UserLog.named(UserLog.REPORT).warnings().accept("disk full"));

        assertThat(lines).containsExactly("WARN io.vitals.report - disk full");
    }

    @Test
    void printedLinesBecomeInfoLinesWithoutTheirPrefix() {
        List<String> lines = capturingErr(() -> {
            PrintStream out = UserLog.named(UserLog.ENGINE).infoLines();
            out.println("[vitals] removed container 'db'");
            out.print("second ");
            out.print("line\r\n");
        });

        assertThat(lines).containsExactly("INFO io.vitals.engine - removed container 'db'",
                "INFO io.vitals.engine - second line");
    }

    private static List<String> capturingErr(Runnable action) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        // slf4j-simple starts each line with the thread's name in brackets
        return captured.toString(StandardCharsets.UTF_8).lines().map(line -> line.replaceFirst("^\\[[^]]*\\] ", ""))
                .toList();
    }
}
