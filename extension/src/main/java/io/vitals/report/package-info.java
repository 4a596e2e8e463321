/** Command-line tools for Vitals reports, e.g. {@link io.vitals.report.MergeReports}. */
package io.vitals.report;
