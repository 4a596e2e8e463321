package io.vitals.internal.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.apiguardian.api.API;

/**
 * A Jackson {@link ObjectMapper}, made when first asked for and shared from then on.
 *
 * <p>Loading and initialising Jackson's databind costs a fresh JVM about 0.2 s on a 2-CPU runner, which a run paid
 * before its first test when a mapper was made up front. Most runs never read a JSON tree: the host probe reads
 * cgroup files, not the Engine API's JSON, and a history is read only where one is configured; the reports are
 * written through jackson-core's generators alone. Code that may need a mapper holds this instead, so that a run
 * which does not pays nothing for it.
 */
@API(status = INTERNAL, since = "0.1")
public final class MapperOnFirstUse implements Supplier<ObjectMapper> {

    private volatile ObjectMapper mapper;

    @Override
    public ObjectMapper get() {
        ObjectMapper made = mapper;
        if (made == null) {
            synchronized (this) {
                made = mapper;
                if (made == null) {
                    made = new ObjectMapper();
                    mapper = made;
                }
            }
        }
        return made;
    }
}
