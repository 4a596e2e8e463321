package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * The other tests whose measurement windows on a shared container (a static {@code @Container}, or any container
 * under {@code PER_CLASS} lifecycle) were open while this test's was: with tests run concurrently, the container's
 * figures in this test then include what they did, so they belong to several tests. Reports mark such figures, and
 * the history, the baseline and the budget suggestions leave them out. A container of the test's own (an instance
 * field) never overlaps.
 *
 * @param tests the other tests, in the order they were found; empty when the window was alone on its container
 */
@API(status = INTERNAL, since = "0.1")
public record Overlap(List<OverlappedTest> tests) {

    public Overlap {
        tests = List.copyOf(tests);
    }

    public static Overlap none() {
        return new Overlap(List.of());
    }

    /** Whether any other test measured the container at the same time. */
    public boolean isPresent() {
        return !tests.isEmpty();
    }

    /** The other tests for people: "a() (com.example.ATests) and b() (com.example.BTests)". */
    public String names() {
        List<String> names = tests.stream().map(OverlappedTest::describe).toList();
        if (names.size() <= 1) {
            return String.join("", names);
        }
        return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", ")) + " and "
                + names.get(names.size() - 1);
    }

    /**
     * The sentence a report or a budget message adds about container {@code container}, e.g. "this window overlapped
     * with b() (com.example.BTests) on container 'db': their usage is included; run them one at a time or give each
     * its own container for exact figures".
     */
    public String sentence(String container) {
        return "this window overlapped with " + names() + " on container '" + container + "': "
                + (tests.size() == 1 ? "its" : "their") + " usage is included; run them one at a time or give each "
                + "its own container for exact figures";
    }

    /**
     * One other test.
     *
     * @param displayName its JUnit display name
     * @param className its class (binary name)
     */
    public record OverlappedTest(String displayName, String className) {

        /** "b() (com.example.BTests)". */
        public String describe() {
            return displayName + " (" + className + ")";
        }
    }
}
