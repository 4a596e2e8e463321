package io.vitals.internal.apimarks;

/** Fixture for {@code ApiMarksTests}: public, internal, and not marked. */
public final class Unmarked {

    /** Public, inside an unmarked type: nothing covers it either. */
    public static final class Nested {
    }

    /** Not public API, whatever its mark. */
    static final class PackagePrivate {
    }

    private Unmarked() {
    }
}

/** Fixture for {@code ApiMarksTests}: not public, so not checked. */
final class HiddenInternal {
}
