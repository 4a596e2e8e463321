package io.vitals.matrix;

import io.vitals.SharedLoad;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the fixture's tests share their containers under parallel execution: this file declares the opt-in, all at
 * once and overlapped windows marked ({@code -Dmatrix.windows=shared}); FixtureWindowsExclusive.java the default.
 */
@SharedLoad
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface FixtureWindows {
}
