package io.vitals.internal.probe;

/** The container (or its cgroup) no longer exists: its timeline ends here, which is not a read error. */
public final class ContainerGoneException extends ProbeException {

    private static final long serialVersionUID = 1L;

    public ContainerGoneException(String message) {
        super(message);
    }
}
