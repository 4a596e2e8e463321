package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Marks a container field to be measured although it is not a Testcontainers {@code @Container}: for containers
 * started some other way (in a {@code @BeforeAll} method, by a framework). The container must be running when a
 * test starts; a field holding a container that is not running is reported, not measured.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Measured {
}
