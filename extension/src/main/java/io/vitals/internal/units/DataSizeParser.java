package io.vitals.internal.units;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Reads the text of a data size, {@code "512MiB"}, {@code "1.5 GiB"}, {@code "200MB"} or {@code "2g"}, into the
 * exact number of bytes it stands for; {@code DataSize.parse} rounds and bounds it, {@code DataRate.parse} does
 * not. The grammar is documented on {@code DataSize.parse}.
 */
@API(status = INTERNAL, since = "0.1")
public final class DataSizeParser {

    private static final long KIB = 1024L;
    private static final long MIB = KIB * 1024;
    private static final long GIB = MIB * 1024;
    private static final long TIB = GIB * 1024;

    // Docker's parser (go-units RAMInBytes, used by `docker run --memory`) reads every k/m/g/t unit as binary,
    // whether written k, K, kB, KB or KiB. Reading "200MB" as 200,000,000 B here would make the same text mean
    // 4.6 % less than in the docker command beside it, so every spelling shares the binary factor. "kB", SI's
    // decimal kilobyte, follows docker too: one rule without exceptions is the one users can remember.
    private static final Map<String, BigDecimal> UNIT_FACTORS = Map.ofEntries(
            Map.entry("B", BigDecimal.ONE),
            Map.entry("KiB", BigDecimal.valueOf(KIB)),
            Map.entry("MiB", BigDecimal.valueOf(MIB)),
            Map.entry("GiB", BigDecimal.valueOf(GIB)),
            Map.entry("TiB", BigDecimal.valueOf(TIB)),
            Map.entry("k", BigDecimal.valueOf(KIB)),
            Map.entry("K", BigDecimal.valueOf(KIB)),
            Map.entry("m", BigDecimal.valueOf(MIB)),
            Map.entry("M", BigDecimal.valueOf(MIB)),
            Map.entry("g", BigDecimal.valueOf(GIB)),
            Map.entry("G", BigDecimal.valueOf(GIB)),
            Map.entry("t", BigDecimal.valueOf(TIB)),
            Map.entry("T", BigDecimal.valueOf(TIB)),
            Map.entry("kB", BigDecimal.valueOf(KIB)),
            Map.entry("KB", BigDecimal.valueOf(KIB)),
            Map.entry("MB", BigDecimal.valueOf(MIB)),
            Map.entry("GB", BigDecimal.valueOf(GIB)),
            Map.entry("TB", BigDecimal.valueOf(TIB)));

    private DataSizeParser() {
    }

    /**
     * The exact number of bytes {@code text} ("1.5GiB") stands for, unrounded and unbounded; empty if it does not
     * match the grammar. The caller strips surrounding whitespace.
     */
    public static Optional<BigDecimal> parseExactBytes(String text) {
        return NumberWithUnit.parse(text).flatMap(size -> Optional.ofNullable(UNIT_FACTORS.get(size.unit()))
                .map(factor -> size.exact().multiply(factor)));
    }
}
