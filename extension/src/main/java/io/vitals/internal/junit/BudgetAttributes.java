package io.vitals.internal.junit;

import io.vitals.ResourceBudget;
import io.vitals.internal.metric.Metric;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the budget values of a {@code @ResourceBudget}, attribute by attribute, for every budgetable {@link Metric}.
 *
 * <p>Approach: the attribute→metric map is derived from the metric entries, reading each attribute by name via
 * reflection, rather than written out by hand; it is checked once, when this class loads, both ways: every metric's
 * attribute must exist on the annotation as a {@code String}, and every {@code String} attribute of the annotation
 * other than {@link #NOT_BUDGETS} must belong to a metric. A new figure or a new attribute therefore cannot be
 * silently ignored: the first test that declares a budget fails with the name of what is missing.
 */
final class BudgetAttributes {

    /** The {@code String} attributes of {@code @ResourceBudget} that say where a budget applies, not what it is. */
    static final Set<String> NOT_BUDGETS = Set.of("container", "phase");

    private static final Map<Metric, Method> ACCESSORS = accessors();

    private BudgetAttributes() {
    }

    /** The budgetable metrics and the annotation attribute each is read from, in metric order. */
    static Map<Metric, Method> accessors() {
        Map<Metric, Method> map = new LinkedHashMap<>();
        for (Metric metric : Metric.budgetable()) {
            String name = metric.attribute();
            try {
                Method method = ResourceBudget.class.getMethod(name);
                if (method.getReturnType() != String.class) {
                    throw new IllegalStateException("@ResourceBudget." + name + " of metric " + metric
                            + " is not a String attribute");
                }
                map.put(metric, method);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("Metric " + metric + " names @ResourceBudget attribute '" + name
                        + "', which the annotation does not declare", e);
            }
        }
        List<String> orphans = new ArrayList<>();
        for (Method method : ResourceBudget.class.getDeclaredMethods()) {
            if (method.getReturnType() == String.class && !NOT_BUDGETS.contains(method.getName())
                    && Metric.byAttribute(method.getName()).isEmpty()) {
                orphans.add(method.getName());
            }
        }
        if (!orphans.isEmpty()) {
            throw new IllegalStateException("@ResourceBudget attributes without a metric (add an entry to "
                    + Metric.class.getName() + "): " + orphans);
        }
        return Collections.unmodifiableMap(map);
    }

    /** The budgets {@code budget} sets, by metric, in metric order; attributes left empty set none. */
    static Map<Metric, String> values(ResourceBudget budget) {
        Map<Metric, String> values = new LinkedHashMap<>();
        ACCESSORS.forEach((metric, accessor) -> {
            String value = read(accessor, budget);
            if (!value.isEmpty()) {
                values.put(metric, value);
            }
        });
        return values;
    }

    private static String read(Method accessor, ResourceBudget budget) {
        try {
            return (String) accessor.invoke(budget);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read @ResourceBudget." + accessor.getName(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Cannot read @ResourceBudget." + accessor.getName(), e.getCause());
        }
    }
}
