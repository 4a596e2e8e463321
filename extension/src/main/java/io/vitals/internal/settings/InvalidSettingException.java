package io.vitals.internal.settings;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * A setting's value that its parser rejects. The message names where the value came from (the configuration
 * parameter's key, or the annotation attribute), the value and what is accepted; the parser's own exception, if
 * any, is the cause.
 */
@API(status = INTERNAL, since = "0.1")
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private InvalidSettingException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code Invalid value 'x' for configuration parameter 'vitals.console': expected table, full, json or off}. */
    static InvalidSettingException ofParameter(String key, String value, String accepted, Throwable cause) {
        return new InvalidSettingException("Invalid value '" + value + "' for configuration parameter '" + key
                + "': expected " + accepted, cause);
    }

    /** {@code Invalid @MeasureResources(samplingInterval = "fast"): expected a duration of at least 1ms, …}. */
    static InvalidSettingException ofAttribute(String annotation, String attribute, String value, String accepted,
            Throwable cause) {
        return new InvalidSettingException("Invalid @" + annotation + "(" + attribute + " = \"" + value
                + "\"): expected " + accepted, cause);
    }
}
