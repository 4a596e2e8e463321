/**
 * Internal: the JUnit Jupiter extension behind {@link io.vitals.MeasureResources}. Not part of the public API;
 * may change without notice.
 */
package io.vitals.internal.junit;
