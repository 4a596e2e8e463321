package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.vitals.MeasureResources;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.report.RunReport;
import io.vitals.internal.result.TestResult;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    @Test
    @DisplayName("a 10,000-test page opens, shows a page of its table, and a section unpacks into the same charts")
    void opensLargePageAndUnpacksOnDemand() throws Exception {
        String chromium = findChromium();
        List<RunReport.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            TestResult r = i % 10 == 0 ? ReportFixtures.oomKilled("com.example.Big" + (i / 20) + "Tests", "oom" + i)
                    : ReportFixtures.result("com.example.Big" + (i / 20) + "Tests", "train",
                            Optional.of("[" + i + "] batch=" + (i % 7) * 32), 0.5 + (i % 13) / 10.0);
            entries.add(new RunReport.Entry(r, "x.json", RegressionVerdict.none("k" + i)));
        }
        Path page = dir.resolve("index.html");
        Files.writeString(page, new HtmlReport().write(new RunReport(Instant.EPOCH, entries, Optional.empty())));
        // A test of the last chunk, OOM-killed so its charts carry every kind of mark; the address opens it.
        int opened = 9_990;
        String inline = new HtmlReport().write(new RunReport(Instant.EPOCH, List.of(entries.get(opened)),
                Optional.empty()));

        Dump dump = dumpDom(chromium, page.toUri() + "#t" + opened);
        double seconds = firstFrameSeconds(chromium, page);
        System.out.printf(Locale.ROOT, "index_html_10000_tests_mb=%.2f%n", Files.size(page) / 1e6);
        System.out.printf(Locale.ROOT, "index_html_open_chromium_s=%.2f%n", seconds);
        System.out.printf(Locale.ROOT, "(navigation start to the first frame after load, in the page; Chromium's own"
                + " start and the DOM dump with the opened section took %.2f s)%n", dump.nanos() / 1e9);

        assertThat(dump.log().lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")))
                .as("console output of the page").isEmpty();
        int at = dump.dom().indexOf("<details id=\"t" + opened + "\"");
        assertThat(at).as("section t%d in the DOM", opened).isPositive();
        String section = dump.dom().substring(at, dump.dom().indexOf("</div></details>", at));
        assertThat(section).contains(" open=");
        // memory, CPU, PIDs and I/O, and the fixture's five GPU charts (memory, utilisation, power, temperature, clock)
        assertThat(matches("<svg class=\"chart\"", section)).as("charts drawn").hasSize(9);
        // the same paths (so the same points) and the same labels as the chart of an inline page
        assertThat(matches("<path class=\"[^\"]+\" d=\"([^\"]+)\"", section))
                .isEqualTo(matches("<path class=\"[^\"]+\" d=\"([^\"]+)\"", inline)).hasSize(13);
        // (the DOM dump writes an apostrophe as it is, the page as &#39;)
        assertThat(matches("<text class=\"[^\"]+\" x=\"\\d+\" y=\"\\d+\">([^<]+)<", section))
                .isEqualTo(matches("<text class=\"[^\"]+\" x=\"\\d+\" y=\"\\d+\">([^<]+)<", inline).stream()
                        .map(label -> label.replace("&#39;", "'")).toList())
                .contains("OOM kill", "limit 2.0 GiB");
        // a section nobody opened stays packed; the table shows its first page, unpacked
        assertThat(dump.dom()).doesNotContain("<details id=\"t5\"").contains("Showing 500 of 10000 rows.")
                .contains("<details id=\"compare\">").doesNotContain("<svg class=\"bars\"");
        String body = dump.dom().substring(dump.dom().indexOf("<tbody>"), dump.dom().indexOf("</tbody>"));
        assertThat(matches("<tr>", body)).hasSize(500);

        // Sorting a packed table sorts all its rows, not the page shown: click "Peak memory" twice (descending) once
        // the rows are unpacked (the pager's button appears then), and the largest of 10,000 comes first. Opening
        // the comparisons draws their bar charts.
        Path sorting = dir.resolve("sorting.html");
        // (an observer, not a timer: timers would use up the virtual time budget before the unpacking is done)
        Files.writeString(sorting, Files.readString(page).replace("</body>", "<script>new MutationObserver("
                + "function(m,o){if(document.querySelector('#pager button')){o.disconnect();"
                + "var th=document.querySelectorAll('#tests th')[2];th.click();th.click();"
                + "document.getElementById('compare').open=true;}})"
                + ".observe(document.getElementById('pager'),{childList:true});</script></body>"));
        Dump sortedDump = dumpDom(chromium, sorting.toUri().toString());
        assertThat(sortedDump.log().lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")))
                .as("console output of the page").isEmpty();
        String sorted = sortedDump.dom();
        assertThat(matches("<svg class=\"bars\"", sorted)).hasSize(3 * 500);
        List<Double> peaks = matches("<tr><td data-v=\"[^\"]*\">.*?</td><td data-v=\"[^\"]*\">.*?</td><td data-v=\""
                + "([^\"]+)\"", sorted.substring(sorted.indexOf("<tbody>"), sorted.indexOf("</tbody>")))
                .stream().map(Double::parseDouble).collect(Collectors.toList());
        double largest = entries.stream().mapToDouble(e -> e.result().containers().get(0).usage().peakMemory()
                .toBytes()).max().orElseThrow();
        assertThat(peaks).hasSize(500).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(peaks.get(0)).isEqualTo(largest);
    }

    private record Dump(String dom, String log, long nanos) {
    }

    // --dump-dom prints the DOM once the page is loaded and its script has run; the virtual time budget lets the
    // asynchronous unpacking finish first.
    private Dump dumpDom(String chromium, String url) throws Exception {
        Path out = Files.createTempFile(dir, "dom", ".html");
        Path log = Files.createTempFile(dir, "log", ".txt");
        long start = System.nanoTime();
        Process process = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + dir.resolve("profile-dump"), "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=10000", "--dump-dom", url)
                .redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        long nanos = System.nanoTime() - start;
        return new Dump(Files.readString(out), Files.readString(log), nanos);
    }

    /**
     * How long the page takes to open, from navigation start to the first frame painted after its load event, read
     * in the page itself (a copy with a probe script that logs it), so Chromium's own start-up is not counted.
     */
    private double firstFrameSeconds(String chromium, Path page) throws Exception {
        Path probed = dir.resolve("probed.html");
        Files.writeString(probed, Files.readString(page).replaceFirst("<body>", "<body><script>"
                + "window.addEventListener('load',function(){requestAnimationFrame(function(){"
                + "requestAnimationFrame(function(){console.log('FIRST_FRAME_MS '+Math.round(performance.now()));"
                + "});});});</script>"));
        Process process = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + dir.resolve("profile-probe"), "--enable-logging=stderr", "--v=0",
                "--screenshot=" + dir.resolve("probe.png"), "--window-size=1400,1000", probed.toUri().toString())
                .redirectErrorStream(true).start();
        String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        List<String> ms = matches("FIRST_FRAME_MS (\\d+)", log);
        assertThat(ms).as("the probe's line; log:%n%s", log).isNotEmpty();
        return Integer.parseInt(ms.get(0)) / 1e3;
    }

    private static List<String> matches(String regex, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.groupCount() > 0 ? m.group(1) : m.group());
        }
        return found;
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
