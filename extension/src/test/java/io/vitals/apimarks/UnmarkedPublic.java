package io.vitals.apimarks;

/** Fixture for {@code ApiMarksTests}: a public top-level type outside the internal package, not marked. */
public final class UnmarkedPublic {

    /** Nested types are covered by their top-level type; only top-level ones are checked outside internal. */
    public static final class Nested {
    }

    private UnmarkedPublic() {
    }
}
