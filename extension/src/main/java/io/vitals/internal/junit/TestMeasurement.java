package io.vitals.internal.junit;

import io.vitals.ResourceMonitor;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measurement of one test: a window on every watched container. It is what the {@link ResourceMonitor} tests
 * get injected reads, and it is ended exactly once: when the test is judged, or when the test's store closes should
 * the test's invocation end before that.
 */
final class TestMeasurement implements ResourceMonitor, AutoCloseable {

    private final Map<String, MeasuredContainer> containers;
    private Map<String, ResourceUsage> finished;

    TestMeasurement(List<MeasuredContainer> containers) {
        Map<String, MeasuredContainer> byName = new LinkedHashMap<>();
        containers.forEach(c -> byName.put(c.name(), c));
        this.containers = byName;
    }

    List<MeasuredContainer> containers() {
        return new ArrayList<>(containers.values());
    }

    /** Ends every window (once) and returns each container's usage, in field order. */
    synchronized Map<String, ResourceUsage> finish() {
        if (finished == null) {
            Map<String, ResourceUsage> usages = new LinkedHashMap<>();
            containers.forEach((name, container) -> usages.put(name, container.window().close()));
            finished = usages;
        }
        return finished;
    }

    @Override
    public void close() {
        finish();
    }

    @Override
    public ResourceUsage usage() {
        return container(onlyName()).window().usageSoFar();
    }

    @Override
    public ResourceUsage usage(String container) {
        return container(container).window().usageSoFar();
    }

    @Override
    public Map<String, ResourceUsage> usages() {
        Map<String, ResourceUsage> usages = new LinkedHashMap<>();
        containers.forEach((name, container) -> usages.put(name, container.window().usageSoFar()));
        return usages;
    }

    @Override
    public ResourceSnapshot snapshot() {
        return snapshot(onlyName());
    }

    @Override
    public ResourceSnapshot snapshot(String container) {
        return usage(container).after();
    }

    @Override
    public void mark(String phase) {
        if (phase == null || phase.isBlank()) {
            throw new IllegalArgumentException("A phase needs a name; got '" + phase + "'");
        }
        containers.values().forEach(container -> container.window().mark(phase));
    }

    private String onlyName() {
        if (containers.size() != 1) {
            throw new IllegalStateException(containers.isEmpty()
                    ? "No container is watched in this test: annotate a container field with @Container or @Measured"
                    : containers.size() + " containers are watched (" + String.join(", ", containers.keySet())
                            + "): name one, e.g. usage(\"" + containers.keySet().iterator().next() + "\")");
        }
        return containers.keySet().iterator().next();
    }

    private MeasuredContainer container(String name) {
        MeasuredContainer container = containers.get(name);
        if (container == null) {
            throw new IllegalArgumentException("No watched container named '" + name + "'; watched: "
                    + (containers.isEmpty() ? "none" : String.join(", ", containers.keySet())));
        }
        return container;
    }
}
