/**
 * One run across several JVMs: the forks of one build write one set of run-wide reports together. Internal.
 */
package io.vitals.internal.report.run;
