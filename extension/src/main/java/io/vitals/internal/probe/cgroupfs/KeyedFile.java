package io.vitals.internal.probe.cgroupfs;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * A {@code key value} file the host may lack (cpu.stat, cpuacct.stat, memory.events, oom_control), with the values
 * of its {@link CgroupFiles.Keys} as last read. Without the file every value reads as {@link CgroupFiles#ABSENT},
 * so the stats readers of both cgroup versions ask for a value the same way whether the host has it or not.
 */
@API(status = INTERNAL, since = "0.1")
public final class KeyedFile {

    private final Optional<CgroupFile> file;
    private final CgroupFiles.Keys keys;
    private final long[] values;

    public KeyedFile(Optional<CgroupFile> file, CgroupFiles.Keys keys) {
        this.file = file;
        this.keys = keys;
        this.values = keys.newValues();
    }

    public boolean isPresent() {
        return file.isPresent();
    }

    /** Reads the file again; without it every value is absent. */
    public void read() throws IOException {
        if (file.isPresent()) {
            file.get().readKeyed(keys, values);
        } else {
            Arrays.fill(values, CgroupFiles.ABSENT);
        }
    }

    /** The last read value of key {@code slot}, {@link CgroupFiles#ABSENT} where the file lacked it. */
    public long value(int slot) {
        return values[slot];
    }

    /** The last read value of key {@code slot}, zero where the file lacked it. */
    public long orZero(int slot) {
        return CgroupFiles.orElse(values[slot], 0);
    }
}
