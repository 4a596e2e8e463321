package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.RunReport;
import io.vitals.internal.report.TestResult;
import io.vitals.internal.report.baseline.BaselineVerdict;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HtmlReportTests {

    private static RunReport run(List<TestResult> results) {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (TestResult r : results) {
            entries.add(new RunReport.Entry(r, "x/" + r.methodName() + ".json", BaselineVerdict.none("k")));
        }
        return new RunReport(Instant.EPOCH, entries, Optional.empty());
    }

    @Test
    @DisplayName("display names cannot inject HTML")
    void escapes() {
        TestResult evil = ReportFixtures.result("com.example.T", "m", Optional.of("<script>alert(1)</script>\"'&"),
                1.0);

        String html = new HtmlReport().write(run(List.of(evil)));

        assertThat(html).doesNotContain("<script>alert").contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;");
        assertThat(html).doesNotContain("<b>tensorflow</b>");
    }

    @Test
    @DisplayName("a test that failed before any container was measured needs attention and gets a row")
    void failedBeforeMeasuring() {
        TestResult unmeasured = new TestResult("[engine:junit-jupiter]/[class:com.example.StartIT]/[method:m()]",
                "com.example.StartIT", "m", "m()", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of("ContainerLaunchException: Container startup failed\n\tat ..."), Instant.EPOCH,
                java.time.Duration.ofSeconds(3), List.of());

        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "m"), unmeasured)));

        assertThat(html).contains("<h2>Needs attention</h2>")
                .contains("Failed before any container was measured: <a href=\"#t1\">com.example.StartIT#m</a>: "
                        + "ContainerLaunchException: Container startup failed</li>")
                .contains("StartIT · m</a></td><td data-v=\"\">–</td><td data-v=\"-1\">not measured</td>");
    }

    @Test
    @DisplayName("the page is self-contained: nothing is loaded from a URL")
    void selfContained() {
        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "m"))));

        assertThat(html).doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContain("@import")
                .doesNotContain("url(");
        assertThat(html).contains("<svg").contains("<table id=\"tests\"");
    }

    @Test
    @DisplayName("each chart path has at most 300 points, even from a 5,000-point timeline")
    void downsampled() {
        TestResult big = ReportFixtures.result("com.example.T", "m");
        var c = big.containers().get(0);
        var longUsage = ReportFixtures.usage("tf", 1.0, 5000);
        var container = new io.vitals.internal.report.ContainerResult(c.name(), c.image(), c.limits(), longUsage,
                c.probeDescription(), c.budgets(), c.fault(), c.logTail());
        TestResult result = new TestResult(big.uniqueId(), big.className(), big.methodName(), big.displayName(),
                big.parameters(), big.outcome(), big.failureMessage(), big.startedAt(), big.duration(),
                List.of(container));

        String html = new HtmlReport().write(run(List.of(result)));

        Matcher paths = Pattern.compile("<path class=\"[^\"]*\" d=\"([^\"]*)\"").matcher(html);
        int count = 0;
        while (paths.find()) {
            count++;
            assertThat(paths.group(1).chars().filter(ch -> ch == 'l').count() + 1).isLessThanOrEqualTo(300);
        }
        assertThat(count).isEqualTo(7);
    }

    @Test
    @DisplayName("the downsampler keeps the peak")
    void keepsPeak() {
        double[] y = new double[10_000];
        y[4321] = 99;
        int[] kept = Downsampler.indices(y, 300);
        assertThat(kept.length).isLessThanOrEqualTo(300);
        assertThat(kept).contains(4321, 0, 9999);
    }

    @Test
    @DisplayName("OOM kill and phases are marked; parameterized tests get a comparison chart")
    void marksAndComparison() {
        List<TestResult> results = List.of(ReportFixtures.oomKilled("com.example.T", "oom"),
                ReportFixtures.result("com.example.T", "train", Optional.of("[1] batch=32"), 0.6),
                ReportFixtures.result("com.example.T", "train", Optional.of("[2] batch=64"), 1.0));

        String html = new HtmlReport().write(run(results));

        assertThat(html).contains(">OOM kill</text>").contains(">train</text>").contains(">evaluate</text>")
                .contains("Parameterized tests compared").contains("[2] batch=64");
    }

    @Test
    @DisplayName("a large page packs each section's body; unpacked, it is the same markup as an inline section")
    void packsLargePages() throws IOException {
        List<TestResult> results = new ArrayList<>();
        for (int i = 0; i <= HtmlReport.INLINE_LIMIT; i++) {
            results.add(i % 10 == 0 ? ReportFixtures.oomKilled("com.example.T", "oom" + i)
                    : ReportFixtures.result("com.example.T", "train", Optional.of("[" + i + "] <b>"), 0.5 + i / 100.0));
        }

        String html = new HtmlReport().write(run(results));

        assertThat(html).doesNotContain("<svg class=\"chart\"").contains("<table id=\"tests\"")
                .contains("<details id=\"t150\" data-z=\"1\" data-i=\"50\">");
        List<String> unpacked = new ArrayList<>();
        Matcher chunks = Pattern.compile("<script type=\"application/gzip\" id=\"z(\\d+)\" data-e=\"([0-9,]+)\">"
                + "([A-Za-z0-9+/=]+)</script>").matcher(html);
        while (chunks.find()) {
            assertThat(chunks.group(1)).isEqualTo(String.valueOf(unpacked.size() / HtmlReport.CHUNK));
            String text = gunzip(Base64.getDecoder().decode(chunks.group(3)));
            int start = 0;
            for (int end : Arrays.stream(chunks.group(2).split(",")).mapToInt(Integer::parseInt).toArray()) {
                unpacked.add(text.substring(start, end));
                start = end;
            }
            assertThat(start).isEqualTo(text.length());
        }
        assertThat(unpacked).hasSize(results.size());
        for (int i : new int[] { 0, 1, 99, 100, HtmlReport.INLINE_LIMIT }) {
            String inline = new HtmlReport().write(run(List.of(results.get(i))));
            int body = inline.indexOf("<div class=\"body\">");
            assertThat(unpacked.get(i)).as("test %d", i)
                    .isEqualTo(inline.substring(body, inline.lastIndexOf("</details>")))
                    .contains("<svg class=\"chart\"");
        }
    }

    private static String gunzip(byte[] gzip) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
