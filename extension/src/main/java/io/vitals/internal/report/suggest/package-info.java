/**
 * Internal: the files of budgets suggested from the run history (Markdown, JSON and the summary's section). Not part
 * of the public API; may change without notice.
 */
package io.vitals.internal.report.suggest;
