package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * docs/ci.md's workflows read the report where a user's project has it: {@code target/vitals/...} at the project's
 * root or any module's ({@code **}/target/vitals), never this repository's {@code extension/target/...}, which in a
 * user's project silently finds nothing behind {@code if [ -f ... ]}; and each file they name is one a run writes.
 * examples/setup/first-test.sh checks the same paths against a new project's real output.
 */
@DisplayName("docs/ci.md: the paths its workflows read")
class CiDocsTests {

    private static final Pattern YAML_BLOCK = Pattern.compile("(?ms)^```yaml\n(.*?)^```");
    private static final Pattern REPORT_PATH = Pattern.compile("[A-Za-z0-9_.*/${}-]*target/vitals(/[A-Za-z0-9_.-]+)?");

    @Test
    @DisplayName("every report path is a user's project's, and names a file the run writes")
    void pathsAreAUsersProjects() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "ci.md"));
        List<String> paths = new ArrayList<>();
        Matcher block = YAML_BLOCK.matcher(page);
        while (block.find()) {
            Matcher path = REPORT_PATH.matcher(block.group(1));
            while (path.find()) {
                paths.add(path.group());
            }
        }

        assertThat(paths).as("the report paths of docs/ci.md's workflows").isNotEmpty()
                .allSatisfy(path -> assertThat(path).as("a path of the user's project").matches(
                        "(\\*\\*/|\\*/|shards/\\*/)?target/vitals(/.*)?"))
                .anySatisfy(path -> assertThat(path).isEqualTo("target/vitals/" + ReportSession.SUMMARY_FILE));
        assertThat(paths.stream().filter(p -> p.matches(".*target/vitals/.+")).map(p -> p.replaceFirst(
                ".*target/vitals/", ""))).allSatisfy(file -> assertThat(file).isIn(ReportSession.SUMMARY_FILE,
                        ReportSession.HTML_FILE, ReportSession.INDEX_FILE, ReportSession.PROMETHEUS_FILE));
    }
}
