package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A watched container was OOM-killed, or stopped, while a test ran. The message gives the moment, the memory
 * limit and peak, the last samples and the last lines of the container's log. Thrown even when the test code
 * swallowed the error the fault caused.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class ContainerFaultError extends AssertionError {

    private static final long serialVersionUID = 1L;

    /**
     * @param message the fault's description on the first line, then its evidence; blank lines before it are
     *     dropped, so that a stack trace never opens with an empty line
     */
    public ContainerFaultError(String message) {
        super(message == null ? null : message.stripLeading());
    }
}
