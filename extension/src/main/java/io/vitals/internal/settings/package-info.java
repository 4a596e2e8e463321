/**
 * Internal: reading the run-wide {@code vitals.*} settings (JUnit configuration parameters, then system
 * properties) and the {@code @MeasureResources} attributes that share their parsers. Not part of the public API;
 * may change without notice.
 *
 * <p>The keys are the constants on {@link io.vitals.MeasureResources}; each typed view
 * ({@code internal.junit.Settings}, {@code internal.report.ReportSettings},
 * {@code internal.report.history.HistorySettings}) declares its keys' defaults and reads them through
 * {@link io.vitals.internal.settings.SettingsReader}, so that every bad value is reported in the same words.
 */
package io.vitals.internal.settings;
