package io.vitals.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Op;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Gradients;
import org.tensorflow.op.core.Placeholder;
import org.tensorflow.op.core.Variable;
import org.tensorflow.proto.ConfigProto;
import org.tensorflow.types.TFloat32;

/**
 * A small but real TensorFlow (graph mode) training job: an MLP classifier
 * (features -> relu hidden layer of --width units -> classes, softmax cross-entropy, plain gradient descent)
 * trained on deterministic synthetic data (or a dataset file), fed by a multi-threaded input pipeline.
 *
 * <p>stdout carries exactly one line per epoch, {@code epoch=1 loss=0.4132 examples_per_s=1234.5}, then
 * {@code done epochs=N final_loss=0.1234}. Everything else goes to stderr. Bad flags: usage, exit 2.
 * See {@link Options} for the flags.
 */
public final class Train {

  private static final PrintStream OUT = System.out;
  private static final PrintStream ERR = System.err;

  private Train() {}

  public static void main(String[] args) {
    Options o;
    try {
      o = Options.parse(args);
    } catch (Options.UsageException e) {
      if (e.getMessage() == null) { // --help
        ERR.print(Options.usage());
        System.exit(0);
      }
      ERR.println("train: " + e.getMessage());
      ERR.print(Options.usage());
      ERR.flush();
      System.exit(2);
      return;
    }
    try {
      if (o.writeDataset != null) {
        Path p = Path.of(o.writeDataset);
        new Dataset(o.features, o.classes, o.seed).write(p, o.examples);
        ERR.println("train: wrote " + o.examples + " examples (" + Files.size(p) + " bytes) to " + p);
      } else if (o.warmup) {
        Warmup.run();
      } else {
        train(o);
      }
    } catch (Throwable t) {
      ERR.println("train: failed: " + t);
      t.printStackTrace(ERR);
      ERR.flush();
      System.exit(1);
    }
    ERR.flush();
    OUT.flush();
    System.exit(0);
  }

  private static void train(Options o) throws Exception {
    int features = o.features;
    int classes = o.classes;
    Dataset.Header header = null;
    if (o.dataFile != null) {
      header = Dataset.readHeader(Path.of(o.dataFile));
      if (header.features() != features || header.classes() != classes) {
        ERR.printf("train: %s has features=%d classes=%d; using those%n", o.dataFile, header.features(),
            header.classes());
      }
      features = header.features();
      classes = header.classes();
    }
    Dataset data = new Dataset(features, classes, o.seed);
    Path checkpointDir = null;
    if (o.checkpointDir != null) {
      checkpointDir = Files.createDirectories(Path.of(o.checkpointDir));
    }

    InjectedRegression.PeakWatch peakWatch = InjectedRegression.PeakWatch.startIf(o.extraMemoryPercent > 0);
    ConfigProto config = ConfigProto.newBuilder()
        .setIntraOpParallelismThreads(o.intraOpThreads)
        .setInterOpParallelismThreads(o.interOpThreads)
        // spinning: idle pool threads busy-wait for new work before they sleep, which turns waiting for a core
        // into CPU time; off, CPU time no longer grows with contention (docs/tensorflow.md, "Stable CPU time")
        .setExperimental(ConfigProto.Experimental.newBuilder().setDisableThreadSpinning(!o.threadSpinning))
        .build();

    try (Graph g = new Graph()) {
      Ops tf = Ops.create(g);
      SplittableRandom init = new SplittableRandom(o.seed ^ 0xC0FFEEL);

      Placeholder<TFloat32> x = tf.withName("x")
          .placeholder(TFloat32.class, Placeholder.shape(Shape.of(-1, features)));
      Placeholder<TFloat32> y = tf.withName("y")
          .placeholder(TFloat32.class, Placeholder.shape(Shape.of(-1, classes)));

      Variable<TFloat32> w1 = tf.withName("w1")
          .variable(tf.constant(heNormal(init, features, o.width)));
      Variable<TFloat32> b1 = tf.withName("b1").variable(tf.constant(new float[o.width]));
      Variable<TFloat32> w2 = tf.withName("w2")
          .variable(tf.constant(heNormal(init, o.width, classes)));
      Variable<TFloat32> b2 = tf.withName("b2").variable(tf.constant(new float[classes]));
      List<Variable<TFloat32>> params = List.of(w1, b1, w2, b2);

      Operand<TFloat32> hidden = tf.nn.relu(tf.math.add(tf.linalg.matMul(x, w1), b1));
      Operand<TFloat32> logits = tf.math.add(tf.linalg.matMul(hidden, w2), b2);
      Operand<TFloat32> perExample = tf.nn.softmaxCrossEntropyWithLogits(logits, y).loss();
      Operand<TFloat32> loss = tf.withName("loss").math.mean(perExample, tf.constant(0));

      Gradients grads = tf.gradients(loss, params);
      Operand<TFloat32> lr = tf.constant(o.learningRate);
      List<Op> updates = new ArrayList<>();
      for (int i = 0; i < params.size(); i++) {
        updates.add(tf.train.applyGradientDescent(params.get(i), lr, grads.<TFloat32>dy(i)));
      }

      try (Session session = new Session(g, config)) {
        session.initialize();
        float firstLoss = Float.NaN;
        float lastLoss = Float.NaN;
        long firstExample = 0;
        for (int epoch = 1; epoch <= o.epochs; epoch++) {
          long t0 = System.nanoTime();
          LeakCache leak = o.leakCacheMib > 0 ? new LeakCache(o.leakCacheMib) : null;
          double lossSum = 0;
          long examples = 0;
          int steps;
          try (InputPipeline pipeline = o.dataFile != null
              ? InputPipeline.fromFile(Path.of(o.dataFile), o.inputThreads, o.batchSize, o.preprocessCost)
              : InputPipeline.generated(data, o.inputThreads, o.stepsPerEpoch, o.batchSize, firstExample,
                  o.preprocessCost)) {
            steps = pipeline.steps();
            for (int k = 0; k < steps; k++) {
              InputPipeline.Batch b = pipeline.take(k);
              try (TFloat32 xt = TFloat32.tensorOf(Shape.of(b.size, features),
                      DataBuffers.of(b.x, true, false));
                  TFloat32 yt = TFloat32.tensorOf(Shape.of(b.size, classes),
                      DataBuffers.of(b.y, true, false))) {
                Session.Runner runner = session.runner().feed(x, xt).feed(y, yt).fetch(loss);
                for (Op u : updates) {
                  runner.addTarget(u);
                }
                try (Result r = runner.run()) {
                  lossSum += ((TFloat32) r.get(0)).getFloat();
                }
              }
              examples += b.size;
              if (leak != null) { // cache a copy of the batch, as a leaky "dataset cache" would
                leak.add(b.x);
              }
            }
            pipeline.finish();
          }
          firstExample += examples;
          if (leak != null) { // top up to exactly N MiB of new, touched data for this epoch
            leak.finishEpoch(epoch);
          }
          float epochLoss = (float) (lossSum / steps);
          if (epoch == 1) {
            firstLoss = epochLoss;
          }
          lastLoss = epochLoss;
          if (checkpointDir != null) {
            checkpoint(session, params, checkpointDir.resolve(String.format(Locale.ROOT,
                "weights-epoch-%04d.bin", epoch)));
          }
          double seconds = (System.nanoTime() - t0) / 1e9;
          OUT.printf(Locale.ROOT, "epoch=%d loss=%.4f examples_per_s=%.1f%n", epoch, epochLoss,
              examples / seconds);
          OUT.flush();
        }
        OUT.printf(Locale.ROOT, "done epochs=%d final_loss=%.4f%n", o.epochs, lastLoss);
        OUT.flush();
        if (o.epochs > 1 && !(lastLoss < firstLoss)) {
          ERR.printf(Locale.ROOT, "train: warning: loss did not decrease (%.4f -> %.4f)%n", firstLoss, lastLoss);
        }
      }
    }
    InjectedRegression.apply(o.extraCpuPercent, o.extraMemoryPercent, peakWatch, ERR);
    if (o.holdMs > 0) {
      Thread.sleep(o.holdMs);
    }
  }

  /** He-normal initial weights, deterministic for the seed. */
  private static float[][] heNormal(SplittableRandom r, int rows, int cols) {
    double std = Math.sqrt(2.0 / rows);
    float[][] w = new float[rows][cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        w[i][j] = (float) (r.nextGaussian() * std);
      }
    }
    return w;
  }

  /**
   * Writes the parameters as raw little-endian float32 values, in the order w1 [features][width],
   * b1 [width], w2 [width][classes], b2 [classes], and fsyncs the file.
   */
  private static void checkpoint(Session session, List<Variable<TFloat32>> params, Path file) throws IOException {
    Session.Runner runner = session.runner();
    for (Variable<TFloat32> p : params) {
      runner.fetch(p);
    }
    try (Result r = runner.run();
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      for (int i = 0; i < params.size(); i++) {
        TFloat32 t = (TFloat32) r.get(i);
        int n = (int) t.shape().size();
        float[] values = new float[n];
        t.copyTo(DataBuffers.of(values, false, false));
        ByteBuffer buf = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(values);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }
      ch.force(true);
    }
  }
}
