package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ResourceBudget;
import io.vitals.assertions.AbstractResourceUsageAssert;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every budget attribute and every figure assertion has a {@link Metric} behind it, and the other way round, so a
 * figure cannot be half added: an attribute BudgetPlan ignores, a metric no one can budget or assert.
 */
@DisplayName("Metric coverage of @ResourceBudget and the assertions")
class MetricCoverageTests {

    /**
     * Attributes of {@code @ResourceBudget} that are not figures: where a budget applies ({@code container},
     * {@code phase}) and the flags about the whole test ({@code allowOomKill}, {@code failFast}).
     */
    private static final Set<String> NOT_FIGURES = Set.of("container", "phase", "allowOomKill", "failFast");

    /**
     * The naming rule of a public assertion on a figure of {@link AbstractResourceUsageAssert}:
     * {@code has<Figure>AtMost(...)} or {@code has<Figure>AtLeast(...)}, {@code <Figure>} being the metric's key with
     * a capital first letter ({@code hasPeakMemoryAtMost}). Every other public {@code has…} method fails the test,
     * so a figure check under another name cannot slip past it; {@code was…} methods (OOM kills) and
     * {@code phase(...)} check events and navigate, not figures.
     */
    private static final Pattern FIGURE_ASSERTION = Pattern.compile("has([A-Z]\\w*?)At(Most|Least)");

    private static final List<Method> ATTRIBUTES = Arrays.stream(ResourceBudget.class.getDeclaredMethods())
            .filter(m -> !NOT_FIGURES.contains(m.getName())).toList();

    @Test
    @DisplayName("every @ResourceBudget attribute that is not a flag or a target names a budgetable metric")
    void everyAttributeHasAMetric() {
        assertThat(ATTRIBUTES).isNotEmpty().allSatisfy(attribute -> {
            assertThat(Metric.byAttribute(attribute.getName())).as("metric of @ResourceBudget.%s",
                    attribute.getName()).isPresent();
            assertThat(attribute.getReturnType()).as("@ResourceBudget.%s", attribute.getName())
                    .isEqualTo(String.class);
        });
        assertThat(BudgetAttributes.NOT_BUDGETS).isSubsetOf(NOT_FIGURES);
    }

    @Test
    @DisplayName("every budgetable metric is an attribute of @ResourceBudget")
    void everyMetricHasAnAttribute() {
        assertThat(Metric.budgetable()).allSatisfy(metric -> assertThat(ATTRIBUTES).as("attribute for %s", metric)
                .anyMatch(a -> a.getName().equals(metric.attribute())));
        assertThat(BudgetAttributes.accessors().keySet()).containsExactlyElementsOf(Metric.budgetable());
    }

    @Test
    @DisplayName("BudgetPlan reads every budgetable metric's attribute")
    void budgetPlanReadsEveryAttribute() throws Exception {
        // the fixture must set every figure attribute, or the check below would miss the one it leaves out
        ResourceBudget everything = EveryBudget.class.getAnnotation(ResourceBudget.class);
        for (Method attribute : ATTRIBUTES) {
            assertThat((String) attribute.invoke(everything)).as("EveryBudget sets %s", attribute.getName())
                    .isNotEmpty();
        }

        BudgetPlan plan = BudgetPlan.of(EveryBudget.class, Optional.empty(), List.of("tf"));

        assertThat(plan.budgets()).singleElement().satisfies(budget -> assertThat(budget.limits())
                .extracting(Limit::metric).containsExactlyElementsOf(Metric.budgetable()));
    }

    @Test
    @DisplayName("every budgetable metric has an assertion in its budget's direction")
    void everyMetricHasAnAssertion() {
        List<String> names = publicMethods().stream().map(Method::getName).toList();

        assertThat(Metric.budgetable()).allSatisfy(metric -> assertThat(names).as("assertion for %s", metric)
                .contains(assertionName(metric, metric.direction())));
    }

    @Test
    @DisplayName("every figure assertion names a budgetable metric, and every has… method is a figure assertion")
    void everyAssertionHasAMetric() {
        List<Method> has = publicMethods().stream().filter(m -> m.getName().startsWith("has")).toList();

        assertThat(has).isNotEmpty().allSatisfy(method -> {
            Matcher matcher = FIGURE_ASSERTION.matcher(method.getName());
            assertThat(matcher.matches()).as("%s follows has<Figure>AtMost/AtLeast", method.getName()).isTrue();
            String key = matcher.group(1).substring(0, 1).toLowerCase(Locale.ROOT) + matcher.group(1).substring(1);
            assertThat(Metric.byAttribute(key)).as("metric behind %s", method.getName()).isPresent();
        });
    }

    private static String assertionName(Metric metric, Direction direction) {
        String figure = metric.key().substring(0, 1).toUpperCase(Locale.ROOT) + metric.key().substring(1);
        return "has" + figure + (direction == Direction.CEILING ? "AtMost" : "AtLeast");
    }

    private static List<Method> publicMethods() {
        return Arrays.stream(AbstractResourceUsageAssert.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic()).toList();
    }

    @ResourceBudget(peakMemory = "1GiB", memoryHeadroom = "10%", cpuTime = "60s", averageCpu = "150%",
            peakPids = "64", blockRead = "1GiB", blockWrite = "1GiB", networkReceived = "1GiB",
            networkSent = "1GiB", memoryGrowth = "10MiB/min", throttledTime = "5s",
            peakGpuMemory = "4GiB", averageGpuUtilization = "80%", averageGpuSmUtilization = "60%",
            gpuEnergy = "12kJ", majorPageFaults = "1000")
    static class EveryBudget {
    }
}
