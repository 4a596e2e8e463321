package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The container (or its cgroup) no longer exists: its timeline ends here, which is not a read error. */
@API(status = INTERNAL, since = "0.1")
public final class ContainerGoneException extends ProbeException {

    private static final long serialVersionUID = 1L;

    public ContainerGoneException(String message) {
        super(message);
    }
}
