package io.vitals.workload;

import java.util.Locale;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.TensorFlow;
import org.tensorflow.op.Ops;
import org.tensorflow.types.TFloat32;

/**
 * Loads TensorFlow's native libraries (which makes JavaCPP extract them, ~650 MB, into its cache dir) and
 * runs a trivial graph. Run once at image build time so containers never re-extract.
 *
 * <p>Packaged on its own as {@code target/warmup/warmup.jar} as well, so the Dockerfile can warm the cache
 * in a layer that does not depend on the rest of the workload's code. Also reachable as
 * {@code train --warmup}.
 */
public final class Warmup {

  private Warmup() {}

  public static void main(String[] args) {
    run();
  }

  static void run() {
    long t0 = System.nanoTime();
    String version = TensorFlow.version();
    try (Graph g = new Graph(); Session s = new Session(g)) {
      Ops tf = Ops.create(g);
      Operand<TFloat32> sum = tf.math.add(tf.constant(1f), tf.constant(2f));
      try (Result r = s.runner().fetch(sum).run()) {
        float v = ((TFloat32) r.get(0)).getFloat();
        System.err.printf(Locale.ROOT, "train: warmup ok, TensorFlow %s, 1+2=%.0f, %.1f s%n", version, v,
            (System.nanoTime() - t0) / 1e9);
      }
    }
  }
}
