/**
 * Internal: where the lines Vitals writes for its users go (warnings, engine notices, baseline findings), through
 * SLF4J loggers named by kind, or standard error where no provider is bound. Not part of the public API; may change
 * without notice.
 */
package io.vitals.internal.log;
