package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** Which side of a budget is the breach: above a ceiling, or below a floor (headroom that must stay free). */
@API(status = INTERNAL, since = "0.1")
public enum Direction {

    /** The figure must stay at or under its budget; more is worse. */
    CEILING(">"),
    /** The figure must stay at or above its budget; less is worse. */
    FLOOR("<");

    private final String symbol;

    Direction(String symbol) {
        this.symbol = symbol;
    }

    /** Whether {@code actual} keeps to {@code budget}. */
    public boolean isWithin(double actual, double budget) {
        return this == CEILING ? actual <= budget : actual >= budget;
    }

    /**
     * How far {@code actual} is past {@code budget} on the breach side: positive for a breach, negative for room to
     * spare, with one sign for both directions.
     */
    public double overshoot(double actual, double budget) {
        return this == CEILING ? actual - budget : budget - actual;
    }

    /** Whether a move by {@code delta} (now minus before) is for the worse. */
    public boolean isWorse(double delta) {
        return this == CEILING ? delta > 0 : delta < 0;
    }

    /** The relation a breach shows: {@code ">"} for a ceiling, {@code "<"} for a floor. */
    public String breachSymbol() {
        return symbol;
    }
}
