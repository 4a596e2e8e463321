/**
 * Internal: budgets suggested from the run history. Not part of the public API; may change without notice.
 */
package io.vitals.internal.regression.suggest;
