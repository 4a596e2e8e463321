package io.vitals.internal.metric;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How people write values of each {@link Unit}, the unit-specific code behind {@link Unit#nearMiss} and
 * {@link Unit#roundUp}: hints for a budget value that is almost right (a unit in the wrong case {@code 200mb}, spelled
 * out {@code 5 sec}, missing {@code 150} for a percentage), and budgets rounded up to two significant digits in a
 * unit a person would write ({@code 330MiB}, {@code 17s}, {@code 850ms}). Every hint is checked against the real
 * parser, so it never proposes something that would be rejected in turn.
 */
final class UnitForms {

    private static final Pattern NUMBER_AND_WORD = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]*)");
    private static final Pattern DURATION_PART = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]+)\\s*");
    private static final Pattern RATE = Pattern.compile("(.+?)\\s*(?:/|\\bper\\b)\\s*([A-Za-z]+)");

    // Case-sensitive size units in the order a hint lists them: the docker-style form first, then IEC.
    private static final List<String> SIZE_UNITS = List.of("B", "kB", "KB", "MB", "GB", "TB", "k", "m", "g", "t",
            "KiB", "MiB", "GiB", "TiB");

    private static final Map<String, String> SIZE_WORDS = Map.of(
            "byte", "B", "bytes", "B",
            "kilobyte", "KiB", "kilobytes", "KiB",
            "megabyte", "MiB", "megabytes", "MiB",
            "gigabyte", "GiB", "gigabytes", "GiB");

    private static final Map<String, String> DURATION_WORDS = Map.ofEntries(
            Map.entry("sec", "s"), Map.entry("secs", "s"), Map.entry("second", "s"), Map.entry("seconds", "s"),
            Map.entry("min", "m"), Map.entry("mins", "m"), Map.entry("minute", "m"), Map.entry("minutes", "m"),
            Map.entry("hr", "h"), Map.entry("hrs", "h"), Map.entry("hour", "h"), Map.entry("hours", "h"),
            Map.entry("msec", "ms"), Map.entry("msecs", "ms"), Map.entry("millis", "ms"),
            Map.entry("millisecond", "ms"), Map.entry("milliseconds", "ms"),
            Map.entry("s", "s"), Map.entry("m", "m"), Map.entry("h", "h"), Map.entry("ms", "ms"),
            Map.entry("us", "us"), Map.entry("ns", "ns"));

    private static final Map<String, String> RATE_WORDS = Map.ofEntries(
            Map.entry("s", "s"), Map.entry("sec", "s"), Map.entry("second", "s"),
            Map.entry("m", "min"), Map.entry("min", "min"), Map.entry("mins", "min"), Map.entry("minute", "min"),
            Map.entry("h", "h"), Map.entry("hr", "h"), Map.entry("hour", "h"));

    private static final long KIB = 1024;

    private UnitForms() {
    }

    // ---- near misses: "did you mean 5s?"

    static Optional<String> sizeHint(String text) {
        return sizeHint(text, "");
    }

    static Optional<String> durationHint(String text) {
        return suggest(Unit.DURATION, durationFix(text)).map(s -> "did you mean " + s + "?");
    }

    static Optional<String> percentHint(String text) {
        return suggest(Unit.PERCENT, percentFix(text)).map(s -> "did you mean " + s + "?");
    }

    static Optional<String> rateHint(String text) {
        Matcher m = RATE.matcher(text);
        if (!m.matches()) {
            // a size without a time unit: the usual slip is leaving out "/min"
            return suggest(Unit.SIZE, Optional.of(text))
                    .map(size -> "a rate needs a time unit: did you mean " + size + "/min?");
        }
        String size = m.group(1).strip();
        String per = RATE_WORDS.get(m.group(2).toLowerCase(Locale.ROOT));
        if (per == null) {
            return Optional.empty();
        }
        if (suggest(Unit.SIZE, Optional.of(size)).isPresent()) {
            return suggest(Unit.RATE, Optional.of(size + "/" + per)).map(s -> "did you mean " + s + "?");
        }
        return sizeHint(size, "/" + per);
    }

    /**
     * For case-sensitive SI units ("mJ" is not "MJ"): only a unit that matches one of {@code units} in another case
     * is fixed, and a bare number gets {@code usual}.
     */
    static Optional<String> caseHint(String text, String usual, String... units) {
        Matcher m = NUMBER_AND_WORD.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        if (m.group(2).isEmpty()) {
            return Optional.of("a unit is required: " + m.group(1) + usual + "?");
        }
        return Stream.of(units).filter(unit -> unit.equalsIgnoreCase(m.group(2)))
                .findFirst().map(unit -> "did you mean " + m.group(1) + unit + "?");
    }

    private static Optional<String> sizeHint(String text, String suffix) {
        Matcher m = NUMBER_AND_WORD.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        String number = m.group(1);
        String word = m.group(2);
        if (word.isEmpty()) {
            return Optional.of("a unit is required: " + number + "MiB" + suffix + "?");
        }
        String spelled = SIZE_WORDS.get(word.toLowerCase(Locale.ROOT));
        if (spelled != null) {
            return Optional.of("did you mean " + number + spelled + suffix + "?");
        }
        Set<String> candidates = new LinkedHashSet<>();
        for (String known : SIZE_UNITS) {
            if (known.equalsIgnoreCase(word)) {
                candidates.add(known);
            }
        }
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        // "mb" → "MB or MiB": name the IEC unit too, which no one can misread.
        String prefix = word.substring(0, 1).toUpperCase(Locale.ROOT);
        if ("KMGT".contains(prefix) && word.length() <= 3) {
            candidates.add(prefix + "iB");
        }
        List<String> forms = new ArrayList<>();
        candidates.stream().filter(c -> !c.equals(word)).forEach(c -> forms.add(number + c + suffix));
        if (forms.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("units are case-sensitive: " + orList(forms) + "?");
    }

    private static Optional<String> durationFix(String text) {
        if (text.matches("\\d+(?:\\.\\d+)?")) {
            return Optional.of(text + "s");
        }
        Matcher m = DURATION_PART.matcher(text);
        StringBuilder fixed = new StringBuilder();
        int end = 0;
        while (m.find() && m.start() == end) {
            String unit = DURATION_WORDS.get(m.group(2).toLowerCase(Locale.ROOT));
            if (unit == null) {
                return Optional.empty();
            }
            fixed.append(m.group(1)).append(unit);
            end = m.end();
        }
        return end == text.length() && end > 0 ? Optional.of(fixed.toString()) : Optional.empty();
    }

    private static Optional<String> percentFix(String text) {
        Matcher m = NUMBER_AND_WORD.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        String word = m.group(2).toLowerCase(Locale.ROOT);
        return word.isEmpty() || word.equals("percent") || word.equals("pct")
                ? Optional.of(m.group(1) + "%") : Optional.empty();
    }

    private static Optional<String> suggest(Unit unit, Optional<String> candidate) {
        return candidate.filter(c -> {
            try {
                unit.parse(c);
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        });
    }

    private static String orList(List<String> forms) {
        if (forms.size() == 1) {
            return forms.get(0);
        }
        return String.join(", ", forms.subList(0, forms.size() - 1)) + " or " + forms.get(forms.size() - 1);
    }

    // ---- rounded budgets: 330MiB, 17s, 850ms, 160%, 41

    static BudgetText size(double raw) {
        long[] factors = {KIB * KIB * KIB, KIB * KIB, KIB};
        String[] units = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < factors.length; i++) {
            if (raw / factors[i] >= 10) {
                long n = ceilTwoDigits(raw / factors[i]);
                return new BudgetText(n + units[i], (double) n * factors[i]);
            }
        }
        long kib = Math.max(1, ceilTwoDigits(raw / KIB));
        return new BudgetText(kib + "KiB", (double) kib * KIB);
    }

    static BudgetText rate(double raw) {
        BudgetText perMinute = size(raw * 60);
        return new BudgetText(perMinute.text() + "/min", perMinute.value() / 60);
    }

    /**
     * {@code raw} in the larger unit ({@code factor} base units, suffix {@code large}) from 10 of them, else in the
     * base unit's {@code small} suffix, scaled by {@code smallPerBase} (1000 for ms of seconds, 1 for joules).
     */
    static BudgetText scaled(double raw, double factor, String large, double smallPerBase, String small) {
        if (raw >= 10 * factor) {
            long n = ceilTwoDigits(raw / factor);
            return new BudgetText(n + large, n * factor);
        }
        long n = Math.max(1, ceilTwoDigits(raw * smallPerBase));
        return new BudgetText(n + small, n / smallPerBase);
    }

    /** At least 1, in the base unit, with {@code suffix} ("%", or "" for a count). */
    static BudgetText plain(double raw, String suffix) {
        long n = Math.max(1, ceilTwoDigits(raw));
        return new BudgetText(n + suffix, n);
    }

    // 320.1 -> 330, 16.2 -> 17, 1234 -> 1300, 7.1 -> 8
    static long ceilTwoDigits(double value) {
        if (value <= 0) {
            return 0;
        }
        if (value < 10) {
            return (long) Math.ceil(value);
        }
        return new BigDecimal(value).round(new MathContext(2, RoundingMode.CEILING)).longValueExact();
    }
}
