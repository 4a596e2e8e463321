package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Path;

import org.apiguardian.api.API;

/**
 * A history file, or a set of them, that cannot be used: the message names the file, the line and the rule broken,
 * e.g. {@code vitals-history.jsonl line 7: "values" must be an array of numbers}.
 */
@API(status = INTERNAL, since = "0.1")
public final class HistoryException extends IOException {

    private static final long serialVersionUID = 1L;

    public HistoryException(Path file, int line, String rule) {
        super(file + " line " + line + ": " + rule);
    }

    public HistoryException(Path file, int line, String rule, Throwable cause) {
        super(file + " line " + line + ": " + rule, cause);
    }

    public HistoryException(String message) {
        super(message);
    }
}
