package io.vitals.workload;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The input pipeline of one epoch: {@code --input-threads} worker threads build batches (generating or
 * receiving raw examples, then "preprocessing" every example, which costs {@code --preprocess-cost}
 * iterations of arithmetic) and hand them to the training loop through bounded queues.
 *
 * <p>Batch {@code k} is always built by worker {@code k % threads} and put in that worker's bounded output
 * queue, and the training loop takes batch {@code k} from that queue, so the batch order (and thus the
 * loss) does not depend on the number of threads. With {@code --data-file}, one reader thread reads the
 * file sequentially and fully and hands raw batches to the workers through bounded queues as well.
 */
final class InputPipeline implements AutoCloseable {

  /** One batch: row-major features [size][features] and one-hot labels [size][classes]. */
  static final class Batch {
    final int size;
    final float[] x;
    final float[] y;
    final int[] labels;

    Batch(int size, int features, int classes) {
      this.size = size;
      this.x = new float[size * features];
      this.y = new float[size * classes];
      this.labels = new int[size];
    }
  }

  private static final int QUEUE_CAPACITY = 2;
  private static final Batch POISON = new Batch(0, 0, 0);

  private final int threads;
  private final int steps;
  private final List<BlockingQueue<Batch>> out = new ArrayList<>();
  private final List<Thread> started = new ArrayList<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** Generated data: batch k of this epoch holds examples (firstExample + k*batchSize ...). */
  static InputPipeline generated(Dataset data, int threads, int steps, int batchSize, long firstExample,
      int preprocessCost) {
    InputPipeline p = new InputPipeline(threads, steps);
    for (int w = 0; w < threads; w++) {
      final int worker = w;
      p.start("input-" + w, () -> {
        for (int k = worker; k < steps; k += threads) {
          Batch b = new Batch(batchSize, data.features, data.classes);
          long base = firstExample + (long) k * batchSize;
          for (int i = 0; i < batchSize; i++) {
            b.labels[i] = data.example(base + i, b.x, i * data.features);
          }
          preprocess(b, data.features, data.classes, preprocessCost);
          p.out.get(worker).put(b);
        }
      });
    }
    return p;
  }

  /** Steps per epoch when training from a file: full batches only (at least one). */
  static int fileSteps(Dataset.Header h, int batchSize) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, h.examples() / batchSize));
  }

  /** File data: one reader reads the whole file sequentially; the workers preprocess. */
  static InputPipeline fromFile(Path file, int threads, int batchSize, int preprocessCost) throws IOException {
    Dataset.Header header = Dataset.readHeader(file);
    int steps = fileSteps(header, batchSize);
    int features = header.features();
    int classes = header.classes();
    int lastBatchSize = (int) Math.min(batchSize, header.examples()); // only < batchSize for tiny files
    InputPipeline p = new InputPipeline(threads, steps);
    List<BlockingQueue<Batch>> raw = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      raw.add(new ArrayBlockingQueue<>(QUEUE_CAPACITY));
    }
    p.start("reader", () -> {
      try (DataInputStream in = Dataset.open(file)) {
        Dataset.readHeader(in, file);
        long remaining = header.examples();
        for (int k = 0; k < steps; k++) {
          int size = Math.min(batchSize, lastBatchSize);
          Batch b = new Batch(size, features, classes);
          for (int i = 0; i < size; i++) {
            b.labels[i] = in.readInt();
            for (int f = 0; f < features; f++) {
              b.x[i * features + f] = in.readFloat();
            }
          }
          remaining -= size;
          raw.get(k % threads).put(b);
        }
        // read the rest too: an epoch reads the file fully
        long rest = remaining * (4L + 4L * features);
        while (rest > 0) {
          long skipped = in.skipBytes((int) Math.min(rest, 1 << 30));
          if (skipped <= 0) {
            in.readByte(); // throws EOFException on a truncated file
            skipped = 1;
          }
          rest -= skipped;
        }
      } catch (EOFException e) {
        throw new IOException(file + ": truncated dataset file", e);
      }
    });
    for (int w = 0; w < threads; w++) {
      final int worker = w;
      p.start("input-" + w, () -> {
        for (int k = worker; k < steps; k += threads) {
          Batch b = raw.get(worker).take();
          if (b == POISON) {
            return;
          }
          preprocess(b, features, classes, preprocessCost);
          p.out.get(worker).put(b);
        }
      });
    }
    return p;
  }

  private InputPipeline(int threads, int steps) {
    this.threads = threads;
    this.steps = steps;
    for (int w = 0; w < threads; w++) {
      out.add(new ArrayBlockingQueue<>(QUEUE_CAPACITY));
    }
  }

  int steps() {
    return steps;
  }

  interface Body {
    void run() throws Exception;
  }

  private void start(String name, Body body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (InterruptedException e) {
        // closed
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }, name);
    t.setDaemon(true);
    started.add(t);
    t.start();
  }

  /** Takes batch {@code k} (0-based; must be called for k = 0, 1, 2, ... in order). */
  Batch take(int k) throws Exception {
    BlockingQueue<Batch> q = out.get(k % threads);
    while (true) {
      Batch b = q.poll(100, TimeUnit.MILLISECONDS);
      if (b != null) {
        return b;
      }
      Throwable f = failure.get();
      if (f != null) {
        throw new IOException("input pipeline failed: " + f, f);
      }
    }
  }

  /** Waits for the reader (if any) to finish reading the file, then reports any failure. */
  void finish() throws Exception {
    for (Thread t : started) {
      t.join();
    }
    Throwable f = failure.get();
    if (f != null) {
      throw new IOException("input pipeline failed: " + f, f);
    }
  }

  @Override
  public void close() {
    for (Thread t : started) {
      t.interrupt();
    }
  }

  /**
   * "Preprocessing": a per-example normalisation whose cost is {@code cost} iterations of a dependent
   * floating-point recurrence over the example's features (a stand-in for decoding/augmentation). The
   * result feeds back into the data so the JIT cannot drop it, but it changes the features only by ~1e-6.
   */
  static void preprocess(Batch b, int features, int classes, int cost) {
    for (int i = 0; i < b.size; i++) {
      int off = i * features;
      float acc = 0f;
      int j = 0;
      for (int it = 0; it < cost; it++) {
        acc = acc * 0.9999f + b.x[off + j];
        if (++j == features) {
          j = 0;
        }
      }
      b.x[off] += acc * 1e-7f;
      b.y[i * classes + b.labels[i]] = 1f;
    }
  }
}
