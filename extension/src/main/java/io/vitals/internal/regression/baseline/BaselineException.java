package io.vitals.internal.regression.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Path;

import org.apiguardian.api.API;

/**
 * A baseline file that cannot be used: the message names the file, the line where there is one, and what is wrong,
 * e.g. {@code vitals-baseline.json line 12, column 3: it does not parse as JSON: Unexpected end-of-input}.
 */
@API(status = INTERNAL, since = "0.1")
public final class BaselineException extends IOException {

    private static final long serialVersionUID = 1L;

    public BaselineException(Path file, int line, String rule) {
        super(file + " line " + line + ": " + rule);
    }

    public BaselineException(Path file, int line, int column, String rule, Throwable cause) {
        super(file + " line " + line + ", column " + column + ": " + rule, cause);
    }

    /** For a problem that has no line, such as an empty file. */
    public BaselineException(Path file, String rule) {
        super(file + ": " + rule);
    }
}
