package io.vitals.internal.junit;

import io.vitals.MeasureResources;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.settings.InvalidSettingException;
import io.vitals.internal.settings.SettingParser;
import io.vitals.internal.settings.SettingsReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.junit.jupiter.api.MediaType;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Connects the extension to the report writers: one {@link ReportSession} per report directory and run, kept in
 * the root store and closed with it (which writes the run-wide files). Also publishes each test's key figures as
 * JUnit report entries, so they land in Surefire's XML, and, where a listener records file entries (see
 * {@link MeasureResources#PUBLISH_JSON_KEY}), its JSON as a file entry.
 */
// CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable; implementing both keeps the store
// closing us on every JUnit 5.10+ release.
@SuppressWarnings("deprecation")
final class Reports implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    private static final UserLog LOG = UserLog.named(UserLog.REPORT);

    // JUnit's Open Test Reporting listener, the one launcher that records file entries, is switched on by this key
    static final String OPEN_XML_KEY = "junit.platform.reporting.open.xml.enabled";

    private final ReportSession session;
    private final boolean publishJson;

    private Reports(ReportSession session, boolean publishJson) {
        this.session = session;
        this.publishJson = publishJson;
    }

    static Reports open(Path reportDir, Function<String, Optional<String>> config) {
        ReportSettings settings;
        boolean publishJson;
        try {
            settings = ReportSettings.from(key -> key.equals(MeasureResources.REPORT_DIR_KEY)
                    ? Optional.of(reportDir.toString()) : config.apply(key));
            SettingsReader reader = new SettingsReader(config);
            publishJson = reader.read(MeasureResources.PUBLISH_JSON_KEY, SettingParser.bool(),
                    reader.read(OPEN_XML_KEY, SettingParser.bool(), false));
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException(e.getMessage(), e);
        }
        return new Reports(new ReportSession(settings), publishJson);
    }

    /** Compares the test with the baseline; call before the outcome is decided. */
    RegressionVerdict compare(TestResult result) {
        RegressionVerdict verdict = session.compare(result);
        if (!verdict.failsTest() && verdict.isNoteworthy()) {
            verdict.lines().forEach(line -> LOG.info(result.displayName() + ": " + line));
        }
        return verdict;
    }

    /**
     * Hands the test to the session, whose report thread writes its JSON. Only when the JSON is to be attached to
     * the test does the test wait for it: a file entry must be published while the test runs.
     */
    void testFinished(ExtensionContext context, TestResult result) {
        CompletableFuture<Optional<Path>> written = session.testFinished(result);
        context.publishReportEntry(entries(result));
        if (!publishJson) {
            return;
        }
        session.writeQueuedFilesNow(); // this test waits for its file: not for the rest of its batch
        written.join().ifPresent(path -> {
            try {
                context.publishFile(path.getFileName().toString(), MediaType.APPLICATION_JSON,
                        target -> Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING));
            } catch (RuntimeException | LinkageError e) {
                // launchers without output-directory support (older Surefire) cannot take files; the JSON is
                // in the report directory all the same
            }
        });
    }

    /**
     * Hands over a test that got no measurement (failed in {@code @BeforeEach}, aborted, disabled) or a class whose
     * setup failed. Nothing is published to JUnit: the test has finished by now, and has no figures.
     */
    void unmeasured(TestResult result) {
        session.testFinished(result);
    }

    private static Map<String, String> entries(TestResult result) {
        Map<String, String> entries = new LinkedHashMap<>();
        for (ContainerResult container : result.containers()) {
            String prefix = "vitals." + container.name() + ".";
            var usage = container.usage();
            entries.put(prefix + "peakMemory", usage.peakMemory().toString());
            usage.memoryLimit().ifPresent(limit -> entries.put(prefix + "memoryLimit", limit.toString()));
            entries.put(prefix + "cpuTime", usage.cpuTime().toMillis() + " ms");
            entries.put(prefix + "averageCpu", usage.averageCpuPercent().toString());
            entries.put(prefix + "peakPids", Long.toString(usage.peakPids()));
            entries.put(prefix + "oomKills", ReportedFigure.oomKills(usage).value().stream()
                    .mapToObj(kills -> Long.toString(Math.round(kills))).findFirst()
                    .orElse(ReportedFigure.NOT_MEASURED_HERE));
            entries.put(prefix + "probe", usage.probe().description());
        }
        return entries;
    }

    void classFinished(Class<?> testClass) {
        session.classFinished(testClass.getName());
    }

    /**
     * No test is left to run ({@link RunProgress}): the run's files are written now, while the classes end and stop
     * their containers, and kept at the close if nothing changed meanwhile.
     */
    void lastTestEnded() {
        try {
            session.prepareClose();
        } catch (RuntimeException e) {
            // on the launcher's listener thread: nothing may escape; the close writes the files as it always did
            LOG.warn("Could not start writing the run's reports ahead of its end (" + e + "); they are written at "
                    + "the end");
        }
    }

    @Override
    public void close() {
        session.close();
    }
}
