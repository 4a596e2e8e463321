package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.vitals.MeasureResources;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.report.TestResult;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the HTML report of ~50 tests in headless Chromium: the page must load without console errors and render
 * to a non-trivial screenshot. Fails (does not skip) without Chromium, since an unchecked page is what this is for.
 * Set {@code -Dvitals.screenshot=docs/report-screenshot.png} to keep the screenshot.
 */
class HtmlReportChromiumIT {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the report loads in Chromium without console errors and renders")
    void rendersInChromium() throws Exception {
        String chromium = findChromium();
        Path reports = dir.resolve("vitals");
        List<String> warnings = new ArrayList<>();
        try (ReportSession session = new ReportSession(ReportSettings.from(key -> Optional.ofNullable(Map.of(
                MeasureResources.REPORT_DIR_KEY, reports.toString(), MeasureResources.CONSOLE_KEY, "off").get(key))),
                Clock.systemUTC(), s -> { }, warnings::add)) {
            for (int i = 0; i < 50; i++) {
                TestResult result = i == 0 ? ReportFixtures.oomKilled("com.example.TrainingTests", "trainTooLarge")
                        : i < 6 ? ReportFixtures.result("com.example.TrainingTests", "train",
                                Optional.of("[" + i + "] batch=" + (16 << i)), 0.4 + i * 0.15)
                        : ReportFixtures.result("com.example.Service" + (i / 10) + "Tests", "case" + i,
                                Optional.empty(), 0.3 + (i % 9) / 10.0);
                session.testFinished(result);
            }
        }
        assertThat(warnings).isEmpty();
        // Open the first test sections, so the screenshot shows charts as well as the table.
        Path page = reports.resolve("index.html");
        String html = Files.readString(page);
        Files.writeString(page, html.replaceFirst("<details id=\"t0\">", "<details id=\"t0\" open>"));

        Path screenshot = dir.resolve("screenshot.png");
        Process process = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0",
                "--screenshot=" + screenshot, "--window-size=1400,1000", page.toUri().toString())
                .redirectErrorStream(true).start();
        String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();

        List<String> consoleErrors = log.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught"))
                .collect(Collectors.toList());
        assertThat(consoleErrors).as("console output of the page; full log:%n%s", log).isEmpty();
        assertThat(screenshot).as("screenshot; chromium log:%n%s", log).exists();
        byte[] png = Files.readAllBytes(screenshot);
        assertThat(png.length).as("screenshot size").isGreaterThan(30_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");

        String keep = System.getProperty("vitals.screenshot");
        if (keep != null && !keep.isBlank()) {
            Files.copy(screenshot, Path.of(keep), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static String findChromium() throws IOException {
        for (String name : new String[] { "chromium", "chromium-browser", "google-chrome" }) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return fail("Chromium is needed to check the HTML report but was not found on the PATH (looked for chromium,"
                + " chromium-browser, google-chrome). Install it, e.g. 'apt-get install -y chromium' on Debian or"
                + " Ubuntu.");
    }
}
