package io.vitals.workload;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Deterministic synthetic classification data, and the binary dataset file format.
 *
 * <p>Example {@code i} (for a given seed) always has the same features and label. Features are uniform in
 * [-sqrt(3), sqrt(3)] (unit variance); the label is the argmax over classes of a fixed "teacher" score that
 * is linear in the features plus a pairwise product term, so an MLP can learn it and the loss decreases.
 *
 * <p>Dataset file format (all values big-endian, as written by {@link DataOutputStream}):
 * <pre>
 *   int   magic    = 0x56544453 ("VTDS")
 *   int   version  = 1
 *   long  examples
 *   int   features
 *   int   classes
 *   then `examples` records of:
 *     int   label              (0 .. classes-1)
 *     float feature[features]
 * </pre>
 */
final class Dataset {

  static final int MAGIC = 0x56544453;
  static final int VERSION = 1;
  static final int HEADER_BYTES = 4 + 4 + 8 + 4 + 4;

  final int features;
  final int classes;
  private final long seed;
  private final float[][] teacher; // [classes][features]

  Dataset(int features, int classes, long seed) {
    this.features = features;
    this.classes = classes;
    this.seed = seed;
    SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
    teacher = new float[classes][features];
    double scale = 1.0 / Math.sqrt(features);
    for (int c = 0; c < classes; c++) {
      for (int f = 0; f < features; f++) {
        teacher[c][f] = (float) (r.nextGaussian() * scale);
      }
    }
  }

  /** Fills {@code x[off .. off+features)} with example {@code index}'s features and returns its label. */
  int example(long index, float[] x, int off) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    for (int f = 0; f < features; f++) {
      x[off + f] = (float) ((r.nextDouble() * 2.0 - 1.0) * 1.7320508);
    }
    int best = 0;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < classes; c++) {
      double s = 0;
      float[] t = teacher[c];
      for (int f = 0; f < features; f++) {
        s += t[f] * x[off + f];
      }
      // nonlinear part: product of two features specific to the class
      s += 0.5 * x[off + (c % features)] * x[off + ((c + 1) % features)];
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
    return best;
  }

  /** Writes {@code examples} examples to {@code path} (see the class comment for the format), fsync'd. */
  void write(Path path, long examples) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      OutputStream raw = Channels.newOutputStream(ch);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 20));
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(examples);
      out.writeInt(features);
      out.writeInt(classes);
      float[] x = new float[features];
      for (long i = 0; i < examples; i++) {
        int label = example(i, x, 0);
        out.writeInt(label);
        for (int f = 0; f < features; f++) {
          out.writeFloat(x[f]);
        }
      }
      out.flush();
      ch.force(true);
    }
  }

  /** Header of a dataset file. */
  record Header(long examples, int features, int classes) {}

  static Header readHeader(Path path) throws IOException {
    try (DataInputStream in = open(path)) {
      return readHeader(in, path);
    }
  }

  static DataInputStream open(Path path) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
    return new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch), 1 << 20));
  }

  static Header readHeader(DataInputStream in, Path path) throws IOException {
    try {
      int magic = in.readInt();
      int version = in.readInt();
      if (magic != MAGIC || version != VERSION) {
        throw new IOException(path + ": not a dataset file (bad magic/version)");
      }
      long examples = in.readLong();
      int features = in.readInt();
      int classes = in.readInt();
      if (examples < 1 || features < 1 || classes < 2) {
        throw new IOException(path + ": bad header: examples=" + examples + " features=" + features
            + " classes=" + classes);
      }
      return new Header(examples, features, classes);
    } catch (EOFException e) {
      throw new IOException(path + ": truncated dataset header", e);
    }
  }
}
