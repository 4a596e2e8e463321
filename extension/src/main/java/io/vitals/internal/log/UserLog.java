package io.vitals.internal.log;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * Where the lines Vitals writes for users go (warnings, notices about the engine, baseline findings): through SLF4J
 * to a logger named for their kind, so that a user can silence or redirect each kind in their logging configuration
 * (docs/configuration.md, "Logging and console output"). Where no SLF4J provider is bound, SLF4J would drop them;
 * they go to standard error instead, as "[vitals] ..." lines, so that a warning is never lost by default.
 * The console table is not written here: it goes to standard output behind {@code vitals.console}.
 */
@API(status = INTERNAL, since = "0.1")
public final class UserLog {

    /** Report warnings (unwritable files, a report thread that did not finish) and baseline findings. */
    public static final String REPORT = "io.vitals.report";
    /** Which Docker engine is measured, classes skipped for want of one, stranded containers removed. */
    public static final String ENGINE = "io.vitals.engine";
    /** Warnings about a test: memory near its limit, a misdeclared {@code @Measured} field. */
    public static final String TEST = "io.vitals.test";

    private static final String PREFIX = "[vitals] ";

    private final Logger logger;

    private UserLog(Logger logger) {
        this.logger = logger;
    }

    /** @param name one of {@link #REPORT}, {@link #ENGINE}, {@link #TEST} */
    public static UserLog named(String name) {
        return new UserLog(LoggerFactory.getLogger(name));
    }

    /** An informational line, e.g. a notice or a finding. */
    public void info(String message) {
        if (unbound()) {
            System.err.println(PREFIX + message);
        } else {
            logger.info(message);
        }
    }

    /** A warning: something the user should act on. */
    public void warn(String message) {
        if (unbound()) {
            System.err.println(PREFIX + "WARNING: " + message);
        } else {
            logger.warn(message);
        }
    }

    /** {@link #warn} as a sink, for the classes that take one. */
    public Consumer<String> warnings() {
        return this::warn;
    }

    /**
     * A stream for the classes that print lines: each line becomes an {@link #info} line, without a leading
     * "[vitals] " (the logger's name says where it comes from).
     */
    public PrintStream infoLines() {
        return new PrintStream(new LineSplitter(line -> info(line.startsWith(PREFIX)
                ? line.substring(PREFIX.length()) : line)), true, StandardCharsets.UTF_8);
    }

    // Asked on every line rather than once: the provider is bound when SLF4J first initialises, which Vitals does
    // not control, and the check is a field read once it has.
    private static boolean unbound() {
        return LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory;
    }

    /** Hands each complete line written to it to a sink, without its line break. */
    private static final class LineSplitter extends ByteArrayOutputStream {

        private final Consumer<String> sink;

        LineSplitter(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                emit();
            } else {
                super.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                write(bytes[i]);
            }
        }

        private void emit() {
            String line = toString(StandardCharsets.UTF_8);
            reset();
            sink.accept(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        }
    }
}
