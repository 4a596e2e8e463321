/**
 * Internal: parsed budgets, their evaluation against a usage and its typed outcome ({@link
 * io.vitals.internal.budget.BudgetResult}), shared by {@code @ResourceBudget}, the AssertJ assertions and every
 * report so that all of them judge and word a breach the same way. Depends on no report: the reports depend on
 * this package ({@code PackageCyclesTests} holds it to that). Not part of the public API.
 */
package io.vitals.internal.budget;
