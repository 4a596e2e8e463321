/**
 * Internal: merging the report directories of several shards or modules into one. Not part of the public API.
 */
package io.vitals.internal.report.merge;
