package io.vitals.matrix;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the fixture's tests share their containers under parallel execution: this file declares the default, each
 * shared container's tests one at a time. The pom compiles either this file or FixtureWindowsShared.java (which
 * declares the same annotation with {@code @SharedLoad}), by {@code -Dmatrix.windows=exclusive|shared}, so that one
 * fixture serves both kinds of matrix cell.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface FixtureWindows {
}
