package io.vitals.workload;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The classic leak: an unbounded "dataset cache" that keeps a copy of every batch it sees, up to
 * {@code --leak-cache-mib} MiB of NEW data per epoch, and never frees anything.
 *
 * <p>The copies live in direct (off-heap) buffers: every byte is written (allocateDirect zeroes the memory
 * and the copies overwrite it), so the memory is resident, and the growth is not blurred by the Java heap's
 * sizing policy: the container's memory grows by N MiB per epoch. The launcher removes the JVM's limit on
 * direct memory, so a long enough leak ends with the container's OOM killer, like a real one.
 */
final class LeakCache {

  private static final int CHUNK = 1 << 20;
  private static final List<ByteBuffer> CHUNKS = new ArrayList<>();

  private final long quota;
  private long left;
  private ByteBuffer current;

  /** Starts an epoch's worth of leaking: {@code mib} MiB of new data. */
  LeakCache(int mib) {
    this.quota = (long) mib << 20;
    this.left = quota;
  }

  /** Caches a copy of a batch's features (until this epoch's quota is used up). */
  void add(float[] values) {
    int i = 0;
    while (left > 0 && i < values.length) {
      ByteBuffer b = chunk();
      int n = Math.min(values.length - i, b.remaining() / 4);
      b.asFloatBuffer().put(values, i, n);
      b.position(b.position() + 4 * n);
      left -= 4L * n;
      i += n;
    }
  }

  /** Ends the epoch: tops the cache up so exactly the quota was added (every page written). */
  void finishEpoch(int epoch) {
    while (left > 0) {
      ByteBuffer b = chunk();
      for (int p = b.position(); p < b.limit(); p += 4096) {
        b.put(p, (byte) epoch);
      }
      left -= b.remaining();
      b.position(b.limit());
    }
    current = null;
  }

  static long totalBytes() {
    long n = 0;
    for (ByteBuffer b : CHUNKS) {
      n += b.capacity();
    }
    return n;
  }

  /** The chunk being filled; a new one (never bigger than the rest of the quota) when it is full. */
  private ByteBuffer chunk() {
    if (current == null || !current.hasRemaining()) {
      current = ByteBuffer.allocateDirect((int) Math.min(CHUNK, left)).order(ByteOrder.LITTLE_ENDIAN);
      CHUNKS.add(current);
    }
    return current;
  }
}
