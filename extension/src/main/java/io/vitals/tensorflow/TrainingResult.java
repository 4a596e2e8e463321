package io.vitals.tensorflow;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * What a training run inside a {@link TensorFlowContainer} printed and how it ended.
 *
 * @param exitCode the exit code of the training command (137 when it was killed, e.g. by the OOM killer)
 * @param output everything it printed, stdout and stderr interleaved
 * @param epochs the epoch lines it printed ({@code epoch=2 loss=0.4132 examples_per_s=1234.5}), in order
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TrainingResult(long exitCode, String output, List<Epoch> epochs) {

    private static final Pattern EPOCH = Pattern.compile(
            "^epoch=(\\d+) loss=([0-9.eE+-]+|nan|NaN) examples_per_s=([0-9.eE+-]+)\\s*$", Pattern.MULTILINE);

    /**
     * Keeps an unmodifiable copy of the epochs.
     *
     * @param exitCode the exit code of the training command (137 when it was killed, e.g. by the OOM
     *     killer)
     * @param output everything it printed, stdout and stderr interleaved
     * @param epochs the epoch lines it printed ({@code epoch=2 loss=0.4132 examples_per_s=1234.5}), in
     *     order
     */
    public TrainingResult {
        epochs = List.copyOf(epochs);
    }

    /** One epoch line. */
    public record Epoch(int number, double loss, double examplesPerSecond) {
    }

    /**
     * Parses the epoch lines out of {@code output}.
     *
     * @param exitCode the exit code of the training command
     * @param output everything it printed
     * @return the run, with its epochs
     */
    public static TrainingResult of(long exitCode, String output) {
        List<Epoch> epochs = new ArrayList<>();
        Matcher matcher = EPOCH.matcher(output);
        while (matcher.find()) {
            epochs.add(new Epoch(Integer.parseInt(matcher.group(1)), Double.parseDouble(matcher.group(2)),
                    Double.parseDouble(matcher.group(3))));
        }
        return new TrainingResult(exitCode, output, epochs);
    }

    /**
     * {@return whether the training command exited with code 0}
     */
    public boolean succeeded() {
        return exitCode == 0;
    }

    /** {@return the loss of the last epoch, if any epoch finished} */
    public OptionalDouble finalLoss() {
        return epochs.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(epochs.get(epochs.size() - 1).loss());
    }

    /** {@return mean examples per second over the epochs after the first (the first pays for graph building)} */
    public OptionalDouble examplesPerSecond() {
        List<Epoch> steady = epochs.size() > 1 ? epochs.subList(1, epochs.size()) : epochs;
        return steady.stream().mapToDouble(Epoch::examplesPerSecond).average();
    }

    /**
     * The last {@code lines} lines of the output.
     *
     * @param lines how many lines, at most
     * @return those lines, each ending with a line break
     */
    public String outputTail(int lines) {
        String[] all = output.split("\n");
        StringBuilder tail = new StringBuilder();
        for (int i = Math.max(0, all.length - lines); i < all.length; i++) {
            tail.append(all[i]).append('\n');
        }
        return tail.toString();
    }
}
