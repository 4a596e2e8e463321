package io.vitals.internal.junit;

import com.github.dockerjava.api.command.InspectContainerResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * What a container that did not start said about it. Testcontainers' own failure ("Container startup failed for
 * image ...", caused by "Container did not start correctly") gives neither the exit code nor the container's last
 * log lines, which it only logs; a container whose command exits at once then leaves the user with nothing. When
 * a class ends with a {@link ContainerLaunchException}, what each watched container said when it failed its
 * start-up check ({@link StartupWitness}: Testcontainers removes it right after) is added to the failure, with its
 * exit code, error and last log lines.
 */
final class ContainerStartFailure {

    /** How many of the container's last log lines the failure shows. */
    static final int LOG_LINES = 10;

    private ContainerStartFailure() {
    }

    /** The added failure, when the class (or test) ended because a container did not start. */
    static Optional<IllegalStateException> explain(ExtensionContext context, List<WatchedField> fields,
            Optional<Object> instance) {
        Optional<Throwable> failure = context.getExecutionException();
        if (failure.isEmpty() || !isLaunchFailure(failure.get())) {
            return Optional.empty();
        }
        List<String> told = new ArrayList<>();
        for (WatchedField field : fields) {
            Optional<ContainerState> container;
            try {
                container = field.container(instance);
            } catch (RuntimeException e) {
                continue; // a field we cannot read says nothing about why a container did not start
            }
            container.flatMap(StartupWitness::told).or(() -> container.filter(state -> state.getContainerId() != null)
                    .flatMap(state -> describe(field.name(), state))).ifPresent(told::add);
        }
        if (told.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new IllegalStateException(String.join("\n", told)));
    }

    private static boolean isLaunchFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ContainerLaunchException) {
                return true;
            }
        }
        return false;
    }

    /** The exit code, error and last log lines of a container that does not run; empty if it runs or is gone. */
    static Optional<String> describe(String name, ContainerState container) {
        InspectContainerResponse info;
        try {
            info = container.getCurrentContainerInfo();
        } catch (RuntimeException e) {
            return Optional.empty(); // already removed: nothing left to tell
        }
        InspectContainerResponse.ContainerState state = info.getState();
        if (Boolean.TRUE.equals(state.getRunning())) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder("Container field '").append(name).append("' (image ")
                .append(info.getConfig().getImage()).append(", id ")
                .append(container.getContainerId(), 0, Math.min(12, container.getContainerId().length()))
                .append(") is not running: its command exited with code ").append(state.getExitCodeLong());
        if (Boolean.TRUE.equals(state.getOOMKilled())) {
            text.append(", killed for lack of memory (OOMKilled)");
        }
        if (state.getError() != null && !state.getError().isBlank()) {
            text.append(", engine error: ").append(state.getError());
        }
        List<String> lines = lastLines(container);
        if (lines.isEmpty()) {
            text.append("; it wrote nothing to stdout or stderr");
        } else {
            text.append("; its last ").append(lines.size() == 1 ? "log line" : lines.size() + " log lines")
                    .append(":");
            lines.forEach(line -> text.append("\n    ").append(line));
        }
        return Optional.of(text.toString());
    }

    private static List<String> lastLines(ContainerState container) {
        List<String> lines;
        try {
            lines = container.getLogs().lines().filter(line -> !line.isBlank()).toList();
        } catch (RuntimeException e) {
            return List.of("(its logs could not be read: " + e.getMessage() + ")");
        }
        return lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size());
    }

    /**
     * Why a field holds no running container: what the container said when it exited, or, when nothing started it
     * and no extension starts {@code @Container} fields, i.e. the
     * class (and its enclosing classes) carry neither {@code @MeasureResources} nor {@code @Testcontainers}
     * (a budget alone registers only the measuring extension).
     */
    static String notRunningHint(Class<?> testClass, WatchedField field, Optional<ContainerState> container) {
        Optional<String> exited = container.filter(state -> state.getContainerId() != null)
                .flatMap(state -> describe(field.name(), state));
        if (exited.isPresent()) {
            return " (" + exited.get() + ")";
        }
        if (!AnnotationSupport.isAnnotated(field.field(), Container.class)) {
            return "";
        }
        for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
            if (AnnotationSupport.isAnnotated(type, Testcontainers.class)) {
                return "";
            }
        }
        return "; " + testClass.getSimpleName() + " is annotated neither @MeasureResources nor @Testcontainers, so "
                + "nothing starts its @Container fields: annotate the class @Testcontainers so that @Container "
                + "fields are started, or start the container yourself";
    }
}
