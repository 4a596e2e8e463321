package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** A probe could not read a container's figures. The message names the container and what was read. */
@API(status = INTERNAL, since = "0.1")
public class ProbeException extends Exception {

    private static final long serialVersionUID = 1L;

    public ProbeException(String message, Throwable cause) {
        super(message, cause);
    }

    public ProbeException(String message) {
        super(message);
    }
}
