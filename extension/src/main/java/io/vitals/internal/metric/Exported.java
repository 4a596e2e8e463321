package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.units.Preconditions;

import java.util.Locale;

import org.apiguardian.api.API;

/**
 * How a figure is exported to Prometheus: one per-container family in {@code vitals.prom}.
 *
 * @param name the family name, in base units ({@code _bytes}, {@code _seconds}, {@code _ratio}), counters ending in
 *     {@code _total}
 * @param type gauge or counter
 * @param help the HELP text
 */
@API(status = INTERNAL, since = "0.1")
public record Exported(String name, Type type, String help) {

    /** Prometheus metric types used here. */
    public enum Type {
        GAUGE, COUNTER;

        /** As the TYPE line writes it. */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Exported {
        Preconditions.check(name.matches("vitals_container_[a-z_]+"), "not a container family name: %s", name);
        Preconditions.check(type != Type.COUNTER || name.endsWith("_total"), "a counter ends in _total: %s", name);
        Preconditions.check(!help.isBlank(), "help text of %s is blank", name);
    }
}
