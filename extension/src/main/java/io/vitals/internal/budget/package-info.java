/**
 * Internal: parsed budgets and their evaluation against a usage, shared by {@code @ResourceBudget} and the
 * AssertJ assertions so that both judge and word a breach the same way. Not part of the public API.
 */
package io.vitals.internal.budget;
