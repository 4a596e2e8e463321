package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * Which measurements belong together: the test's key ({@link ReportNames#testKey}) without the repetition. The
 * invocations of a {@code @RepeatedTest} ("repetition 3 of 5", JUnit's default name, also inside a custom
 * {@code name = "{displayName} repetition {currentRepetition} of {totalRepetitions}"}) are repetitions of one test,
 * so they share one identity and are compared as one sample; every other invocation (a parameterized test's
 * "[2] 128") is a test of its own.
 *
 * @param key the identity, e.g. {@code com.example.TrainTests#train}
 * @param repetition which repetition this is, for a repeated test
 * @param repetitions how many repetitions there are, for a repeated test
 */
@API(status = INTERNAL, since = "0.1")
public record TestIdentity(String key, OptionalInt repetition, OptionalInt repetitions) {

    private static final Pattern REPETITION = Pattern.compile("\\s*\\brepetition (\\d+) of (\\d+)\\b\\s*");

    public static TestIdentity of(TestResult result) {
        if (result.parameters().isPresent()) {
            Matcher matcher = REPETITION.matcher(result.parameters().get());
            if (matcher.find()) {
                String rest = (result.parameters().get().substring(0, matcher.start()) + " "
                        + result.parameters().get().substring(matcher.end())).strip();
                String key = result.className() + "#" + result.methodName() + (rest.isEmpty() ? "" : " " + rest);
                return new TestIdentity(key, OptionalInt.of(Integer.parseInt(matcher.group(1))),
                        OptionalInt.of(Integer.parseInt(matcher.group(2))));
            }
        }
        return new TestIdentity(ReportNames.testKey(result), OptionalInt.empty(), OptionalInt.empty());
    }

    /** Whether this is a repetition before the last one, so the comparison waits for the rest. */
    public boolean awaitsMoreRepetitions() {
        return repetition.isPresent() && repetition.getAsInt() < repetitions.getAsInt();
    }
}
