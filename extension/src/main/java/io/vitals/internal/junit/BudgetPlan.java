package io.vitals.internal.junit;

import io.vitals.ResourceBudget;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The budgets of one test: every {@code @ResourceBudget} on its class (and enclosing classes), overridden attribute
 * by attribute by those on the method, per container and phase. Built, and so validated, before any container
 * starts: each value becomes a {@link Limit} once, in {@code beforeAll} ({@link #checkClass}), and the plans are kept
 * in the class's store ({@link Scopes#budgetPlan}) for its tests, as JUnit's {@code TimeoutExtension} keeps its
 * configuration.
 */
record BudgetPlan(List<ContainerBudget> budgets) {

    /**
     * The budgets of one container (and phase).
     *
     * @param container the container's name, resolved (never empty)
     * @param phase the phase, or empty for the whole test
     * @param limits the budgets
     * @param allowOomKill whether an OOM kill is allowed
     */
    record ContainerBudget(String container, Optional<String> phase, List<Limit> limits, boolean allowOomKill,
            boolean failFast) {
    }

    /**
     * The whole-test budgets of {@code container} that end the test at once when broken: those on figures a single
     * sample already shows (peaks), see {@link Metric#live()}.
     */
    List<Limit> failFastLimits(String container) {
        return budgets.stream().filter(b -> b.container().equals(container) && b.phase().isEmpty() && b.failFast())
                .flatMap(b -> b.limits().stream())
                .filter(l -> l.metric().live().isPresent()).toList();
    }

    boolean allowsOomKill(String container) {
        return budgets.stream().anyMatch(b -> b.container().equals(container) && b.phase().isEmpty()
                && b.allowOomKill());
    }

    /**
     * Builds the plan of {@code method} (or of the class alone, when empty), checking every value.
     *
     * @throws ExtensionConfigurationException naming the test, the annotation, the attribute, the value and the
     *     accepted forms; every bad value of every budget that applies, one per line, when there are several
     */
    static BudgetPlan of(Class<?> testClass, Optional<Method> method, List<String> containers) {
        Set<String> errors = new LinkedHashSet<>();
        Map<String, Merged> merged = merge(testClass, method, containers, errors, new Parsed());
        throwIfAny(errors);
        return plan(merged);
    }

    /**
     * The plans of a test class, built and checked once (in {@code beforeAll}) and kept in the class's store for its
     * tests: the class's own, and one for each method with budgets of its own, for the class and each of its
     * {@code @Nested} classes. A method without budgets of its own has the plan of its class.
     */
    record ClassPlans(Map<Class<?>, BudgetPlan> classes, Map<Class<?>, Map<Method, BudgetPlan>> methods) {

        ClassPlans {
            classes = Map.copyOf(classes);
            methods = Map.copyOf(methods);
        }

        /** The plan of {@code method} of {@code testClass}, or of the class alone; empty for a class not checked. */
        Optional<BudgetPlan> planOf(Class<?> testClass, Optional<Method> method) {
            Optional<BudgetPlan> own = method.map(m -> methods.getOrDefault(testClass, Map.of()).get(m));
            return own.isPresent() ? own : Optional.ofNullable(classes.get(testClass));
        }
    }

    /**
     * Checks every budget of the class at once: those on it and its enclosing classes, those on each of its methods
     * (its own and inherited ones), and the same for each of its {@code @Nested} classes, so that a {@code "200mb"}
     * on one method and a {@code "2 Gib"} on another fail the class together, not one build after the other. Each
     * value becomes a limit here, once; the plans built on the way are returned for the tests to reuse.
     *
     * @param containersOf the names of the container fields a class's tests watch
     * @throws ExtensionConfigurationException listing every bad value, each once, class budgets first
     */
    static ClassPlans checkClass(Class<?> testClass, Function<Class<?>, List<String>> containersOf) {
        Set<String> errors = new LinkedHashSet<>();
        Map<Class<?>, Map<String, Merged>> classes = new LinkedHashMap<>();
        Map<Class<?>, Map<Method, Map<String, Merged>>> methods = new LinkedHashMap<>();
        check(testClass, containersOf, errors, new Parsed(), classes, methods);
        throwIfAny(errors);
        Map<Class<?>, BudgetPlan> classPlans = new LinkedHashMap<>();
        classes.forEach((type, merged) -> classPlans.put(type, plan(merged)));
        Map<Class<?>, Map<Method, BudgetPlan>> methodPlans = new LinkedHashMap<>();
        methods.forEach((type, byMethod) -> {
            Map<Method, BudgetPlan> plans = new LinkedHashMap<>();
            byMethod.forEach((method, merged) -> plans.put(method, plan(merged)));
            methodPlans.put(type, Map.copyOf(plans));
        });
        return new ClassPlans(classPlans, methodPlans);
    }

    private static void check(Class<?> testClass, Function<Class<?>, List<String>> containersOf, Set<String> errors,
            Parsed parsed, Map<Class<?>, Map<String, Merged>> classes,
            Map<Class<?>, Map<Method, Map<String, Merged>>> methods) {
        List<String> containers = containersOf.apply(testClass);
        classes.put(testClass, merge(testClass, Optional.empty(), containers, errors, parsed));
        Map<Method, Map<String, Merged>> byMethod = new LinkedHashMap<>();
        // the class's own errors come back with each method's plan; the set keeps one of each. Superclass methods
        // first, then by name: reflection's order is not the source's, and a stable message reads better
        ReflectionSupport.findMethods(testClass,
                m -> AnnotationSupport.isAnnotated(m, ResourceBudget.class)
                        || AnnotationSupport.isAnnotated(m, ResourceBudget.List.class),
                HierarchyTraversalMode.TOP_DOWN).stream()
                .sorted(Comparator.comparingInt((Method m) -> depth(m.getDeclaringClass()))
                        .thenComparing(Method::getName))
                .forEach(method -> byMethod.put(method,
                        merge(testClass, Optional.of(method), containers, errors, parsed)));
        methods.put(testClass, byMethod);
        for (Class<?> nested : ReflectionSupport.findNestedClasses(testClass,
                type -> AnnotationSupport.isAnnotated(type, Nested.class))) {
            check(nested, containersOf, errors, parsed, classes, methods);
        }
    }

    /** A value that is no limit: the annotation as written ({@code @ResourceBudget(peakMemory = "2 Gib")}), and why. */
    private record Invalid(String annotation, String message) {
    }

    private static BudgetPlan plan(Map<String, Merged> merged) {
        List<ContainerBudget> budgets = new ArrayList<>();
        for (Merged entry : merged.values()) {
            budgets.add(new ContainerBudget(entry.container, entry.phase, List.copyOf(entry.limits.values()),
                    entry.allowOomKill, entry.failFast));
        }
        return new BudgetPlan(List.copyOf(budgets));
    }

    /**
     * The values of each {@code @ResourceBudget} annotation, parsed once however many plans it enters (a class's
     * budget enters its own and each of its methods'): per attribute, in the attributes' order, the {@link Limit}
     * or the {@link Invalid} value.
     */
    private static final class Parsed {
        private final Map<ResourceBudget, Map<Metric, Object>> byBudget = new IdentityHashMap<>();

        Map<Metric, Object> of(ResourceBudget budget) {
            return byBudget.computeIfAbsent(budget, b -> {
                Map<Metric, Object> values = new LinkedHashMap<>();
                BudgetAttributes.values(b).forEach((metric, value) -> {
                    try {
                        values.put(metric, Limit.parse(metric, value));
                    } catch (IllegalArgumentException e) {
                        values.put(metric, new Invalid("@ResourceBudget(" + metric.attribute() + " = \"" + value
                                + "\")", e.getMessage()));
                    }
                });
                return values;
            });
        }
    }

    private static int depth(Class<?> type) {
        int depth = 0;
        for (Class<?> c = type.getSuperclass(); c != null; c = c.getSuperclass()) {
            depth++;
        }
        return depth;
    }

    private static void throwIfAny(Set<String> errors) {
        if (errors.size() == 1) {
            throw new ExtensionConfigurationException(errors.iterator().next());
        }
        if (!errors.isEmpty()) {
            // Every bad value at once: a user fixing them one build at a time would need as many builds.
            throw new ExtensionConfigurationException(errors.size() + " invalid @ResourceBudget values:\n  - "
                    + String.join("\n  - ", errors));
        }
    }

    private static Map<String, Merged> merge(Class<?> testClass, Optional<Method> method, List<String> containers,
            Set<String> errors, Parsed parsed) {
        Map<String, Merged> merged = new LinkedHashMap<>();
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            classes.add(0, c);
        }
        for (Class<?> c : classes) {
            apply(merged, AnnotationSupport.findRepeatableAnnotations(c, ResourceBudget.class), containers,
                    "class " + c.getSimpleName(), errors, parsed);
        }
        method.ifPresent(m -> apply(merged, AnnotationSupport.findRepeatableAnnotations(m, ResourceBudget.class),
                containers, "method " + m.getDeclaringClass().getSimpleName() + "." + m.getName() + "()", errors,
                parsed));
        return merged;
    }

    private static final class Merged {
        final String container;
        final Optional<String> phase;
        final Map<Metric, Limit> limits = new LinkedHashMap<>();
        boolean allowOomKill;
        boolean failFast;

        Merged(String container, Optional<String> phase) {
            this.container = container;
            this.phase = phase;
        }
    }

    private static void apply(Map<String, Merged> merged, List<ResourceBudget> budgets, List<String> containers,
            String where, Set<String> errors, Parsed parsed) {
        for (ResourceBudget budget : budgets) {
            // a budget on a container nobody watches still has its values checked, so they are reported too;
            // its entry is never built, since the error fails the plan
            String container = resolveContainer(budget, containers, where, errors).orElse("\u0000unresolved");
            Optional<String> phase = Optional.of(budget.phase().trim()).filter(p -> !p.isEmpty());
            Merged entry = merged.computeIfAbsent(container + "\u0000" + phase.orElse(""),
                    key -> new Merged(container, phase));
            if (phase.isPresent() && (budget.allowOomKill() || budget.failFast())) {
                errors.add("@ResourceBudget(phase = \"" + phase.get() + "\", "
                        + (budget.allowOomKill() ? "allowOomKill" : "failFast") + " = true) on " + where
                        + ": allowOomKill and failFast apply to the whole test; set them on a @ResourceBudget "
                        + "without a phase");
            }
            // booleans cannot be "unset": a flag is on when any budget that applies turns it on
            entry.allowOomKill |= budget.allowOomKill();
            entry.failFast |= budget.failFast();
            parsed.of(budget).forEach((metric, limitOrError) -> {
                if (limitOrError instanceof Limit limit) {
                    entry.limits.put(metric, limit);
                } else {
                    Invalid invalid = (Invalid) limitOrError;
                    errors.add(invalid.annotation() + " on " + where + ": " + invalid.message());
                }
            });
        }
    }

    private static Optional<String> resolveContainer(ResourceBudget budget, List<String> watched, String where,
            Set<String> errors) {
        List<String> containers = watched.stream().sorted().toList(); // field order is not reflection's
        String name = budget.container().trim();
        if (name.isEmpty()) {
            if (containers.size() == 1) {
                return Optional.of(containers.get(0));
            }
            errors.add("@ResourceBudget on " + where + " names no container, but "
                    + (containers.isEmpty() ? "no container field is watched (annotate one with @Container or "
                            + "@Measured)" : containers.size() + " are watched: " + String.join(", ", containers)
                                    + "; set container = \"<field name>\""));
            return Optional.empty();
        }
        if (!containers.contains(name)) {
            errors.add("@ResourceBudget(container = \"" + name + "\") on " + where
                    + " names no watched container field; watched: "
                    + (containers.isEmpty() ? "none" : String.join(", ", containers)));
            return Optional.empty();
        }
        return Optional.of(name);
    }
}
