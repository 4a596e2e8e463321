/**
 * Internal: the files of budgets suggested from the run history (Markdown and the summary's section; the JSON file
 * is written with the other JSON files, in {@code io.vitals.internal.report.json}). Not part of the public API; may
 * change without notice.
 */
package io.vitals.internal.report.suggest;
