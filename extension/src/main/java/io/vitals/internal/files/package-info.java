/**
 * Internal: safe file writing and reading shared by the reports and the regression analysis (atomic writes, kept
 * previous versions, JSON parse errors worded for messages). Not part of the public API; may change without notice.
 */
package io.vitals.internal.files;
