/**
 * A Testcontainers container for TensorFlow training workloads ({@link io.vitals.tensorflow.TensorFlowContainer}),
 * and what a training run returns. Public API; depends only on {@code io.vitals}.
 */
package io.vitals.tensorflow;
