package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Lets the tests of a shared container run at the same time under JUnit's parallel execution, each one's window then
 * holding the others' load.
 *
 * <p>By default, {@link MeasureResources} makes the tests that share a watched container (a static field, an instance
 * field under {@code PER_CLASS}, a field of a superclass or an enclosing class, a {@link Measured} singleton) take a
 * JUnit resource lock on it, read-write, for the length of the test: under parallel execution they run one at a
 * time, every one's figures its own, while tests on other containers run concurrently. On a field, this annotation
 * takes that container's lock in read mode instead; on a test class (inherited by its subclasses and its
 * {@code @Nested} classes), every container of the class. Tests in read mode run concurrently with each other, and
 * their windows that overlap are marked in every report and kept out of the history and the baseline; they never run
 * at the same time as a test that holds the container's lock read-write.
 *
 * <p>Choose it for a container meant to serve several tests at once (a server under concurrent load), where the
 * overlapped figures are the point; keep the default where each test's own figures and budgets matter.
 * docs/ci.md says more.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface SharedLoad {
}
