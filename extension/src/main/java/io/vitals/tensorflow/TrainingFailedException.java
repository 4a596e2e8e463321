package io.vitals.tensorflow;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A training command ended with a non-zero exit code; the message carries the tail of its output. */
@API(status = EXPERIMENTAL, since = "0.1")
public class TrainingFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient TrainingResult result;

    /**
     * A failed training run.
     *
     * @param message what failed, with the tail of the output
     * @param result the failed run
     */
    public TrainingFailedException(String message, TrainingResult result) {
        super(message);
        this.result = result;
    }

    /** {@return the failed run, with its exit code and whole output} */
    public TrainingResult result() {
        return result;
    }
}
