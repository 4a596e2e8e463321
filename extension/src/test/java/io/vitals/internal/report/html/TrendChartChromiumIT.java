package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.regression.HistoryContext;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run history's trend chart as a person sees it, in headless Chromium: a test's section, opened by its address,
 * shows one chart per figure that moved, wide and tall enough to read, with a dot per build, the step drawn where
 * the change-point analysis put it, and its build and commit written under it. Fails (does not skip) without
 * Chromium.
 */
@DisplayName("The trend chart of a figure that stepped, in Chromium")
class TrendChartChromiumIT {

    @TempDir
    Path dir;

    @Test
    @DisplayName("is visible in the opened section, a dot per build, the step line between the right builds, named")
    void stepDrawnAndNamed() throws Exception {
        List<HistoryContext.Point> points = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            points.add(new HistoryContext.Point("b" + i, Optional.of("c0ffee" + i + "abcdef"),
                    ReportFixtures.START.plus(Duration.ofDays(i)), (i < 7 ? 100e6 : 120e6) + 1e6 * (i % 3)));
        }
        HistoryContext.Step step = new HistoryContext.Step(7, "build b7 (commit c0ffee7abcde, main, 2026-03-08)",
                101e6, 121e6, 19.8, 1e-6);
        HistoryContext history = new HistoryContext("tb-05cb4f8f (2 CPUs)", 11,
                List.of("peakMemory stepped +19.8 % (96.3 MiB -> 115.4 MiB) at build b7 (commit c0ffee7abcde, main, "
                        + "2026-03-08) on testbed tb-05cb4f8f"),
                List.of(new HistoryContext.Trend("tf", "", "peakMemory", points, Optional.of(step))));
        TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
        RegressionVerdict verdict = new RegressionVerdict("com.example.TrainTests#train", true, List.of(), List.of(),
                11, false, false, Optional.empty(), Optional.of(history));
        Path page = dir.resolve("index.html");
        Files.writeString(page, new HtmlReport().write(new RunReport(ReportFixtures.START,
                List.of(new RunReport.Entry(result, "x.json", verdict)), Optional.empty()))
                .replace("</body>", "<script>window.addEventListener('load',function(){setTimeout(function(){"
                        + "var out={};var svg=document.querySelector('svg.trend');"
                        + "if(!svg){out.svg='missing';}else{var r=svg.getBoundingClientRect();"
                        + "out.svg={w:r.width,h:r.height};"
                        + "out.dots=svg.querySelectorAll('circle').length;"
                        + "out.now=svg.querySelectorAll('circle.now').length;"
                        + "var cs=svg.querySelectorAll('circle');var line=svg.querySelector('line.step');"
                        + "out.step=line?{x:+line.getAttribute('x1'),before:+cs[6].getAttribute('cx'),"
                        + "after:+cs[7].getAttribute('cx')}:'missing';"
                        + "out.text=Array.prototype.map.call(svg.querySelectorAll('text'),function(t){"
                        + "return t.textContent;}).join(' | ');"
                        + "out.display=getComputedStyle(svg).display;}"
                        + "document.body.setAttribute('data-probe',JSON.stringify(out));},500);});</script></body>"));

        HeadlessChromium.Dump dump = new HeadlessChromium(dir).dumpDom(page.toUri() + "#t0", "trend", 10_000,
                "--window-size=1280,800");
        assertThat(dump.log().lines().filter(l -> l.contains("Uncaught"))).as("script errors of the page").isEmpty();
        String dom = dump.dom();

        Matcher probe = Pattern.compile("data-probe=\"([^\"]+)\"").matcher(dom);
        assertThat(probe.find()).as("the probe's result in the DOM").isTrue();
        JsonNode seen = new ObjectMapper().readTree(probe.group(1).replace("&quot;", "\"").replace("&amp;", "&")
                .replace("&gt;", ">").replace("&lt;", "<"));
        assertThat(seen.get("svg").isObject()).as("a trend chart in the opened section: %s", seen).isTrue();
        assertThat(seen.at("/svg/w").asDouble()).as("chart width in px").isGreaterThan(250);
        assertThat(seen.at("/svg/h").asDouble()).as("chart height in px").isGreaterThan(60);
        assertThat(seen.get("display").asText()).isNotEqualTo("none");
        assertThat(seen.get("dots").asInt()).as("a dot per build").isEqualTo(12);
        assertThat(seen.get("now").asInt()).as("this build marked").isEqualTo(1);
        assertThat(seen.at("/step/x").asDouble()).as("the step line between build 6 and build 7")
                .isGreaterThan(seen.at("/step/before").asDouble()).isLessThan(seen.at("/step/after").asDouble());
        assertThat(seen.get("text").asText()).contains("peakMemory of 'tf', 12 builds")
                .contains("step +19.8 % at build b7 (commit c0ffee7abcde, main, 2026-03-08)");
    }
}
