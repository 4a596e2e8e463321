package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The headless Chromium the report page's checks open it in: found on the PATH (a check fails, never skips, where
 * there is none), each run with its own profile under the test's temporary directory, with what a CI machine needs
 * (no sandbox, no GPU, no network of its own).
 */
final class HeadlessChromium {

    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--enable-logging=stderr", "--v=0");

    private final String executable;
    private final Path dir;

    /** A Chromium whose profiles, DOM dumps and logs go to {@code dir}. */
    HeadlessChromium(Path dir) throws IOException {
        this.executable = find();
        this.dir = dir;
    }

    /** The Chromium on the PATH; fails (never skips) where there is none. */
    static String find() throws IOException {
        for (String name : new String[] { "chromium", "chromium-browser", "google-chrome" }) {
            for (String path : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path candidate = Path.of(path, name);
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return fail("Chromium is needed to check the HTML report but was not found on the PATH (looked for chromium,"
                + " chromium-browser, google-chrome). Install it, e.g. 'apt-get install -y chromium' on Debian or"
                + " Ubuntu.");
    }

    /** A DOM dump: the page once loaded and its script run, Chromium's log, and how long it all took. */
    record Dump(String dom, String log, long nanos) {

        /** The lines of the log that the page's own console or an uncaught script error wrote. */
        List<String> consoleLines() {
            return log.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")).toList();
        }
    }

    /**
     * Loads {@code url} and dumps its DOM. --dump-dom prints the DOM once the page is loaded and its script has run;
     * the virtual time budget lets asynchronous work (the unpacking of sections) finish first.
     */
    Dump dumpDom(String url, String profile, long virtualTimeMillis, String... flags) throws Exception {
        Path out = Files.createTempFile(dir, "dom", ".html");
        Path log = Files.createTempFile(dir, "log", ".txt");
        List<String> command = command(profile);
        command.addAll(List.of(flags));
        command.addAll(List.of("--virtual-time-budget=" + virtualTimeMillis, "--dump-dom", url));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        long nanos = System.nanoTime() - start;
        return new Dump(Files.readString(out), Files.readString(log), nanos);
    }

    /**
     * Opens {@code page} at the window size and returns what its probe script left in {@code data-probe}; the page
     * must write nothing to its console.
     */
    JsonNode probe(Path page, int width, int height, String profile) throws Exception {
        Dump dump = dumpDom(page.toUri().toString(), profile, 5000, "--hide-scrollbars",
                "--window-size=" + width + "," + height);
        assertThat(dump.consoleLines()).as("console output of the page").isEmpty();
        List<String> probe = matches("data-probe=\"([^\"]+)\"", dump.dom());
        assertThat(probe).as("the probe's result in the DOM").hasSize(1);
        return new ObjectMapper().readTree(probe.get(0).replace("&quot;", "\"").replace("&amp;", "&"));
    }

    /** Takes a screenshot of {@code page} at the window size into {@code png}; returns Chromium's log. */
    String screenshot(Path page, Path png, String windowSize, String profile, String... flags) throws Exception {
        List<String> command = command(profile);
        command.addAll(List.of(flags));
        command.addAll(List.of("--screenshot=" + png, "--window-size=" + windowSize, page.toUri().toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        return log;
    }

    /**
     * How long the page takes to open, from navigation start to the first frame painted after its load event, read
     * in the page itself (a copy with a probe script that logs it), so Chromium's own start-up is not counted.
     */
    double firstFrameSeconds(Path page) throws Exception {
        Path probed = dir.resolve("probed.html");
        Files.writeString(probed, Files.readString(page).replaceFirst("<body>", "<body><script>"
                + "window.addEventListener('load',function(){requestAnimationFrame(function(){"
                + "requestAnimationFrame(function(){console.log('FIRST_FRAME_MS '+Math.round(performance.now()));"
                + "});});});</script>"));
        String log = screenshot(probed, dir.resolve("probe.png"), "1400,1000", "probe");
        List<String> ms = matches("FIRST_FRAME_MS (\\d+)", log);
        assertThat(ms).as("the probe's line; log:%n%s", log).isNotEmpty();
        return Integer.parseInt(ms.get(0)) / 1e3;
    }

    /** The first group of each match of {@code regex} in {@code text} (the whole match where it has no group). */
    static List<String> matches(String regex, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.groupCount() > 0 ? m.group(1) : m.group());
        }
        return found;
    }

    private List<String> command(String profile) {
        List<String> command = new ArrayList<>(List.of(executable));
        command.addAll(FLAGS);
        command.add("--user-data-dir=" + dir.resolve("profile-" + profile));
        return command;
    }
}
