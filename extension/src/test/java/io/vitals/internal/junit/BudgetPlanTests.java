package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ResourceBudget;
import io.vitals.internal.units.DurationParser;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Validation of {@code @ResourceBudget} values without Docker: every bad value is reported at once, each with the
 * annotation, attribute, value, place and accepted forms, and a hint where a near miss is obvious.
 */
@DisplayName("Budget plan validation")
class BudgetPlanTests {

    static final String TWO_BAD_VALUES = "2 invalid @ResourceBudget values:\n"
            + "  - @ResourceBudget(peakMemory = \"200mb\") on method TwoBadValues.test(): Invalid data size '200mb': "
            + "expected " + DataSize.ACCEPTED_FORMS + "; units are case-sensitive: 200MB or 200MiB?\n"
            + "  - @ResourceBudget(cpuTime = \"5 sec\") on method TwoBadValues.test(): Invalid duration '5 sec': "
            + "expected " + DurationParser.ACCEPTED_FORMS + "; did you mean 5s?";

    @Test
    @DisplayName("reports every bad attribute of an annotation at once, each with its hint")
    void reportsEveryBadAttribute() {
        assertThat(failure(TwoBadValues.class)).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage(TWO_BAD_VALUES);
    }

    @Test
    @DisplayName("reports bad values of class and method budgets together, class first")
    void reportsClassAndMethodTogether() {
        assertThat(failure(BadOnClassAndMethod.class)).hasMessage("2 invalid @ResourceBudget values:\n"
                + "  - @ResourceBudget(averageCpu = \"150\") on class BadOnClassAndMethod: Invalid percentage '150': "
                + "expected " + Percentage.ACCEPTED_FORMS + "; did you mean 150%?\n"
                + "  - @ResourceBudget(memoryGrowth = \"10MiB\") on method BadOnClassAndMethod.test(): Invalid data "
                + "rate '10MiB': expected " + DataRate.ACCEPTED_FORMS
                + "; a rate needs a time unit: did you mean 10MiB/min?");
    }

    @Test
    @DisplayName("reports the bad values of every method, inherited and @Nested ones too, in one failure")
    void reportsEveryMethodOfTheClassTogether() {
        Throwable failure = catchThrowable(() -> BudgetPlan.checkClass(BadOnSeveralMethods.class,
                c -> List.of("stress")));

        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessage(
                "5 invalid @ResourceBudget values:\n"
                        + "  - @ResourceBudget(cpuTime = \"5 sec\") on class BadOnSeveralMethods: Invalid duration "
                        + "'5 sec': expected " + DurationParser.ACCEPTED_FORMS + "; did you mean 5s?\n"
                        + "  - @ResourceBudget(peakPids = \"lots\") on method InheritedBudget.inherited(): Invalid "
                        + "count 'lots': expected a non-negative whole number, e.g. 64\n"
                        + "  - @ResourceBudget(peakMemory = \"200mb\") on method BadOnSeveralMethods.first(): "
                        + "Invalid data size '200mb': expected " + DataSize.ACCEPTED_FORMS
                        + "; units are case-sensitive: 200MB or 200MiB?\n"
                        + "  - @ResourceBudget(peakMemory = \"2 Gib\") on method BadOnSeveralMethods.second(): "
                        + "Invalid data size '2 Gib': expected " + DataSize.ACCEPTED_FORMS
                        + "; units are case-sensitive: 2GiB?\n"
                        + "  - @ResourceBudget(container = \"gpu\") on method Inner.nested() names no watched "
                        + "container field; watched: stress");
    }

    @Test
    @DisplayName("a class whose budgets are all good passes the class-wide check")
    void goodClassPasses() {
        BudgetPlan.checkClass(AllGood.class, c -> List.of("stress"));
    }

    @Test
    @DisplayName("the class-wide check keeps a plan per class and budgeted method, each what the test alone builds")
    void classCheckKeepsThePlans() throws NoSuchMethodException {
        BudgetPlan.ClassPlans plans = BudgetPlan.checkClass(Planned.class, c -> List.of("stress"));
        Method budgeted = Planned.class.getDeclaredMethod("budgeted");
        Method plain = Planned.class.getDeclaredMethod("plain");
        Method nested = Planned.Inner.class.getDeclaredMethod("nested");

        assertThat(plans.planOf(Planned.class, Optional.of(budgeted)))
                .contains(BudgetPlan.of(Planned.class, Optional.of(budgeted), List.of("stress")));
        assertThat(plans.planOf(Planned.class, Optional.of(plain)))
                .contains(BudgetPlan.of(Planned.class, Optional.of(plain), List.of("stress")))
                .contains(BudgetPlan.of(Planned.class, Optional.empty(), List.of("stress")));
        assertThat(plans.planOf(Planned.Inner.class, Optional.of(nested)))
                .contains(BudgetPlan.of(Planned.Inner.class, Optional.of(nested), List.of("stress")));
        assertThat(plans.planOf(Planned.class, Optional.of(budgeted)).orElseThrow().budgets().get(0).limits())
                .extracting(limit -> limit.metric().attribute()).containsExactly("peakMemory", "cpuTime");
        assertThat(plans.planOf(AllGood.class, Optional.empty())).as("a class not checked").isEmpty();
    }

    @Test
    @DisplayName("a single bad value keeps the one-line message")
    void singleBadValueIsOneLine() {
        assertThat(failure(OneBadValue.class)).hasMessage("@ResourceBudget(peakMemory = \"1.5 GB?\") on method "
                + "OneBadValue.test(): Invalid data size '1.5 GB?': expected " + DataSize.ACCEPTED_FORMS);
    }

    @ParameterizedTest(name = "{0} = \"{1}\" → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            peakMemory     | 200mb         | units are case-sensitive: 200MB or 200MiB?
            peakMemory     | 1gib          | units are case-sensitive: 1GiB?
            peakMemory     | 64 kb         | units are case-sensitive: 64kB, 64KB or 64KiB?
            peakMemory     | 512           | a unit is required: 512MiB?
            peakMemory     | 2 gigabytes   | did you mean 2GiB?
            cpuTime        | 5 sec         | did you mean 5s?
            cpuTime        | 1 min 30 secs | did you mean 1m30s?
            cpuTime        | 90            | did you mean 90s?
            cpuTime        | 2 hours       | did you mean 2h?
            throttledTime  | 250 millis    | did you mean 250ms?
            averageCpu     | 150           | did you mean 150%?
            memoryHeadroom | 20 percent    | did you mean 20%?
            memoryGrowth   | 10MiB         | a rate needs a time unit: did you mean 10MiB/min?
            memoryGrowth   | 10MiB/sec     | did you mean 10MiB/s?
            memoryGrowth   | 10mib/min     | units are case-sensitive: 10MiB/min?
            memoryGrowth   | 1 mb per hour | units are case-sensitive: 1MB/h or 1MiB/h?
            """)
    @DisplayName("hints at the obvious near miss, and the hint parses")
    void hintsAtNearMisses(String attribute, String value, String hint) {
        io.vitals.internal.metric.Metric metric = io.vitals.internal.metric.Metric.byAttribute(attribute).orElseThrow();
        Throwable failure = catchThrowable(() -> io.vitals.internal.budget.Limit.parse(metric, value));
        assertThat(failure).isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("; " + hint);
    }

    @ParameterizedTest(name = "{0} = \"{1}\"")
    @CsvSource(delimiter = '|', textBlock = """
            peakMemory | lots
            cpuTime    | 5 fortnights
            peakPids   | many
            averageCpu | 1.5 cores
            """)
    @DisplayName("gives no hint when nothing obvious is near")
    void noHintWithoutANearMiss(String attribute, String value) {
        io.vitals.internal.metric.Metric metric = io.vitals.internal.metric.Metric.byAttribute(attribute).orElseThrow();
        Throwable failure = catchThrowable(() -> io.vitals.internal.budget.Limit.parse(metric, value));
        assertThat(failure.getMessage()).doesNotContain("did you mean").doesNotContain("case-sensitive");
    }

    @Test
    @DisplayName("docs/budgets.md quotes the several-values message as it is")
    void docsQuoteTheMessage() throws IOException {
        List<String> quoted = checkedBlock(Path.of("..", "docs", "budgets.md"));
        List<String> actual = List.of(TWO_BAD_VALUES.split("\n"));
        assertThat(quoted).hasSameSizeAs(actual);
        for (int i = 0; i < actual.size(); i++) {
            // "…" in the docs stands for the rest of the accepted forms, which are quoted under "Units"
            String line = quoted.get(i);
            int ellipsis = line.indexOf('…');
            if (ellipsis < 0) {
                assertThat(actual.get(i)).isEqualTo(line);
            } else {
                assertThat(actual.get(i)).startsWith(line.substring(0, ellipsis))
                        .endsWith(line.substring(ellipsis + 1));
            }
        }
    }

    /** The fenced block after {@code <!-- checked by BudgetPlanTests -->}. */
    private static List<String> checkedBlock(Path doc) throws IOException {
        List<String> lines = Files.readAllLines(doc);
        int marker = lines.indexOf("<!-- checked by BudgetPlanTests -->");
        assertThat(marker).as("marker in " + doc).isNotNegative();
        assertThat(lines.get(marker + 1)).startsWith("```");
        List<String> block = new ArrayList<>();
        for (int i = marker + 2; !lines.get(i).startsWith("```"); i++) {
            block.add(lines.get(i));
        }
        return block;
    }

    private static Throwable failure(Class<?> testClass) {
        Method test;
        try {
            test = testClass.getDeclaredMethod("test");
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
        return catchThrowable(() -> BudgetPlan.of(testClass, Optional.of(test), List.of("stress")));
    }

    static class TwoBadValues {
        @ResourceBudget(peakMemory = "200mb", cpuTime = "5 sec")
        void test() {
        }
    }

    @ResourceBudget(averageCpu = "150")
    static class BadOnClassAndMethod {
        @ResourceBudget(memoryGrowth = "10MiB")
        void test() {
        }
    }

    static class InheritedBudget {
        @ResourceBudget(peakPids = "lots")
        void inherited() {
        }
    }

    @ResourceBudget(cpuTime = "5 sec")
    static class BadOnSeveralMethods extends InheritedBudget {
        @ResourceBudget(peakMemory = "200mb")
        void first() {
        }

        @ResourceBudget(peakMemory = "2 Gib")
        void second() {
        }

        @ResourceBudget(peakMemory = "1GiB")
        void fine() {
        }

        @org.junit.jupiter.api.Nested
        class Inner {
            @ResourceBudget(container = "gpu", peakMemory = "1GiB")
            void nested() {
            }
        }
    }

    @ResourceBudget(cpuTime = "5s")
    static class AllGood {
        @ResourceBudget(peakMemory = "1GiB")
        void test() {
        }
    }

    @ResourceBudget(peakMemory = "2GiB")
    static class Planned {
        @ResourceBudget(peakMemory = "1GiB", cpuTime = "5s")
        void budgeted() {
        }

        void plain() {
        }

        @Nested
        class Inner {
            @ResourceBudget(peakPids = "10")
            void nested() {
            }
        }
    }

    static class OneBadValue {
        @ResourceBudget(peakMemory = "1.5 GB?")
        void test() {
        }
    }
}
