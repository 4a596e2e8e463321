package io.vitals.internal.probe;

/** A probe could not read a container's figures. The message names the container and what was read. */
public class ProbeException extends Exception {

    private static final long serialVersionUID = 1L;

    public ProbeException(String message, Throwable cause) {
        super(message, cause);
    }

    public ProbeException(String message) {
        super(message);
    }
}
