package io.vitals.assertions;

import io.vitals.ResourceUsage;

import org.assertj.core.error.BasicErrorMessageFactory;

/**
 * "Expecting container 'tf' not to be OOM-killed but the kernel's OOM killer killed 1 process; limit 512.0 MiB,
 * peak 512.0 MiB", and its opposite.
 */
final class ShouldBeOomKilled extends BasicErrorMessageFactory {

    private ShouldBeOomKilled(String expectation, ResourceUsage usage) {
        super("%nExpecting container %s %s but the kernel's OOM killer killed %s; limit %s, peak %s",
                unquotedString("'" + usage.container() + "'"), unquotedString(expectation),
                unquotedString(processes(usage.oomKills())),
                unquotedString(usage.memoryLimit().map(Object::toString).orElse("none")),
                unquotedString(usage.peakMemory().toString()));
    }

    static ShouldBeOomKilled shouldNotBeOomKilled(ResourceUsage usage) {
        return new ShouldBeOomKilled("not to be OOM-killed", usage);
    }

    static ShouldBeOomKilled shouldBeOomKilled(ResourceUsage usage) {
        return new ShouldBeOomKilled("to be OOM-killed", usage);
    }

    private static String processes(long kills) {
        return kills == 0 ? "no process" : kills == 1 ? "1 process" : kills + " processes";
    }
}
