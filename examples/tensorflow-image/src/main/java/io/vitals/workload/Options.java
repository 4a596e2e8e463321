package io.vitals.workload;

import java.util.LinkedHashMap;
import java.util.Map;

/** Command-line flags of {@link Train}, all in {@code --name value} form (except the boolean {@code --warmup}). */
final class Options {

  /** Thrown for a bad or unknown flag; {@link Train} prints {@link #usage()} and exits 2. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  int epochs = 2;
  int stepsPerEpoch = 50;
  int batchSize = 64;
  int width = 128;
  int features = 32;
  int classes = 3;
  float learningRate = 0.05f;
  int intraOpThreads = 0;
  int interOpThreads = 0;
  int inputThreads = 1;
  boolean threadSpinning = true;
  int extraCpuPercent = 0;
  int extraMemoryPercent = 0;
  int preprocessCost = 40_000;
  int leakCacheMib = 0;
  String dataFile;
  String writeDataset;
  long examples = 0;
  String checkpointDir;
  long holdMs = 0;
  long seed = 42;
  boolean warmup;

  private static final Map<String, String> FLAGS = new LinkedHashMap<>();

  static {
    FLAGS.put("--epochs N", "number of epochs (default 2)");
    FLAGS.put("--steps-per-epoch N", "training steps per epoch with generated data (default 50)");
    FLAGS.put("--batch-size N", "examples per batch (default 64)");
    FLAGS.put("--width N", "hidden layer units (default 128)");
    FLAGS.put("--features N", "input features per example (default 32)");
    FLAGS.put("--classes N", "number of classes, >= 2 (default 3)");
    FLAGS.put("--learning-rate F", "gradient descent step size (default 0.05)");
    FLAGS.put("--intra-op-threads N", "TensorFlow intra-op parallelism, 0 = TF decides (default 0)");
    FLAGS.put("--inter-op-threads N", "TensorFlow inter-op parallelism, 0 = TF decides (default 0)");
    FLAGS.put("--thread-spinning on|off", "let TensorFlow's thread pools spin while they wait for work (default on)");
    FLAGS.put("--extra-cpu-percent N", "burn N % more CPU time than the run used, at its end (injected regression)");
    FLAGS.put("--extra-memory-percent N", "raise the process's peak RSS by N %, at its end (injected regression)");
    FLAGS.put("--input-threads N", "threads preprocessing examples into batches (default 1)");
    FLAGS.put("--preprocess-cost N", "arithmetic iterations spent preprocessing each example (default 40000)");
    FLAGS.put("--leak-cache-mib N", "keep N MiB of new data per epoch in a cache that is never freed (default 0)");
    FLAGS.put("--data-file PATH", "read the dataset from PATH each epoch instead of generating it");
    FLAGS.put("--write-dataset PATH", "write a deterministic dataset file (needs --examples, uses --features/--classes) and exit");
    FLAGS.put("--examples N", "number of examples for --write-dataset");
    FLAGS.put("--checkpoint-dir PATH", "write the weights there after every epoch (fsync'd)");
    FLAGS.put("--hold-ms N", "sleep N ms after training before exiting (default 0)");
    FLAGS.put("--seed N", "seed for data and weights (default 42)");
    FLAGS.put("--warmup", "load TensorFlow, run one tiny graph and exit (used at image build time)");
    FLAGS.put("--help", "print this message and exit 0");
  }

  static String usage() {
    StringBuilder sb = new StringBuilder("usage: train [flags]\n");
    for (Map.Entry<String, String> e : FLAGS.entrySet()) {
      sb.append(String.format("  %-22s %s%n", e.getKey(), e.getValue()));
    }
    return sb.toString();
  }

  static Options parse(String[] args) throws UsageException {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--warmup")) {
        o.warmup = true;
        continue;
      }
      if (flag.equals("--help") || flag.equals("-h")) {
        throw new UsageException(null);
      }
      if (!flag.startsWith("--")) {
        throw new UsageException("unexpected argument: " + flag);
      }
      String value;
      int eq = flag.indexOf('=');
      if (eq > 0) { // also accept --name=value
        value = flag.substring(eq + 1);
        flag = flag.substring(0, eq);
      } else {
        if (i + 1 >= args.length) {
          throw new UsageException("missing value for " + flag);
        }
        value = args[++i];
      }
      switch (flag) {
        case "--epochs" -> o.epochs = positiveInt(flag, value);
        case "--steps-per-epoch" -> o.stepsPerEpoch = positiveInt(flag, value);
        case "--batch-size" -> o.batchSize = positiveInt(flag, value);
        case "--width" -> o.width = positiveInt(flag, value);
        case "--features" -> o.features = positiveInt(flag, value);
        case "--classes" -> {
          o.classes = positiveInt(flag, value);
          if (o.classes < 2) throw new UsageException("--classes must be >= 2");
        }
        case "--learning-rate" -> {
          try {
            o.learningRate = Float.parseFloat(value);
          } catch (NumberFormatException e) {
            throw new UsageException("not a number for " + flag + ": " + value);
          }
          if (!(o.learningRate > 0) || Float.isInfinite(o.learningRate)) {
            throw new UsageException(flag + " must be > 0");
          }
        }
        case "--intra-op-threads" -> o.intraOpThreads = nonNegativeInt(flag, value);
        case "--inter-op-threads" -> o.interOpThreads = nonNegativeInt(flag, value);
        case "--input-threads" -> o.inputThreads = positiveInt(flag, value);
        case "--thread-spinning" -> o.threadSpinning = onOff(flag, value);
        case "--extra-cpu-percent" -> o.extraCpuPercent = nonNegativeInt(flag, value);
        case "--extra-memory-percent" -> o.extraMemoryPercent = nonNegativeInt(flag, value);
        case "--preprocess-cost" -> o.preprocessCost = nonNegativeInt(flag, value);
        case "--leak-cache-mib" -> o.leakCacheMib = nonNegativeInt(flag, value);
        case "--data-file" -> o.dataFile = nonEmpty(flag, value);
        case "--write-dataset" -> o.writeDataset = nonEmpty(flag, value);
        case "--examples" -> o.examples = positiveLong(flag, value);
        case "--checkpoint-dir" -> o.checkpointDir = nonEmpty(flag, value);
        case "--hold-ms" -> o.holdMs = nonNegativeLong(flag, value);
        case "--seed" -> o.seed = parseLong(flag, value);
        default -> throw new UsageException("unknown flag: " + flag);
      }
    }
    if (o.writeDataset != null && o.examples <= 0) {
      throw new UsageException("--write-dataset needs --examples N");
    }
    if (o.writeDataset != null && o.dataFile != null) {
      throw new UsageException("--write-dataset and --data-file are exclusive");
    }
    return o;
  }

  private static boolean onOff(String flag, String v) throws UsageException {
    return switch (v) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new UsageException(flag + " must be on or off: " + v);
    };
  }

  private static String nonEmpty(String flag, String v) throws UsageException {
    if (v.isEmpty()) throw new UsageException("empty value for " + flag);
    return v;
  }

  private static long parseLong(String flag, String v) throws UsageException {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageException("not an integer for " + flag + ": " + v);
    }
  }

  private static int positiveInt(String flag, String v) throws UsageException {
    long n = parseLong(flag, v);
    if (n < 1 || n > Integer.MAX_VALUE) throw new UsageException(flag + " must be between 1 and " + Integer.MAX_VALUE);
    return (int) n;
  }

  private static int nonNegativeInt(String flag, String v) throws UsageException {
    long n = parseLong(flag, v);
    if (n < 0 || n > Integer.MAX_VALUE) throw new UsageException(flag + " must be between 0 and " + Integer.MAX_VALUE);
    return (int) n;
  }

  private static long positiveLong(String flag, String v) throws UsageException {
    long n = parseLong(flag, v);
    if (n < 1) throw new UsageException(flag + " must be >= 1");
    return n;
  }

  private static long nonNegativeLong(String flag, String v) throws UsageException {
    long n = parseLong(flag, v);
    if (n < 0) throw new UsageException(flag + " must be >= 0");
    return n;
  }
}
