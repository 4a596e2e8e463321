package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One build in the history: a run of the suite, with the commit and branch it ran when CI or the user said so, so
 * that a figure that stepped can be traced to the commit that moved it.
 *
 * @param id the run's id ({@code vitals.runId}); shards of one CI run share it
 * @param at when it started
 * @param commit the commit it ran, if known
 * @param branch the branch it ran, if known
 */
@API(status = INTERNAL, since = "0.1")
public record Build(String id, Instant at, Optional<String> commit, Optional<String> branch) {

    // Where common CI systems put the commit and the branch, in the order asked: GitHub Actions, GitLab CI,
    // Jenkins, Buildkite. A pull request's GITHUB_REF_NAME is "123/merge", so GITHUB_HEAD_REF comes first.
    private static final List<String> COMMIT_VARIABLES = List.of("GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT",
            "BUILDKITE_COMMIT");
    private static final List<String> BRANCH_VARIABLES = List.of("GITHUB_HEAD_REF", "GITHUB_REF_NAME",
            "CI_COMMIT_REF_NAME", "GIT_BRANCH", "BUILDKITE_BRANCH");

    public Build {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        commit = commit.filter(c -> !c.isBlank());
        branch = branch.filter(b -> !b.isBlank());
    }

    /** A build of which nothing but id and start is known. */
    public static Build of(String id, Instant at) {
        return new Build(id, at, Optional.empty(), Optional.empty());
    }

    /** This run's build: the settings' commit and branch, else the CI's variables in {@code environment}. */
    public static Build current(String id, Instant at, HistorySettings settings, Map<String, String> environment) {
        return new Build(id, at, settings.commit().or(() -> first(COMMIT_VARIABLES, environment)),
                settings.branch().or(() -> first(BRANCH_VARIABLES, environment)));
    }

    private static Optional<String> first(List<String> variables, Map<String, String> environment) {
        return variables.stream().map(environment::get).filter(v -> v != null && !v.isBlank()).findFirst();
    }

    /** "build 9012-1 (commit 3f9a0c1, main, 2026-12-03)": how reports name it. */
    public String describe() {
        StringBuilder out = new StringBuilder("build ").append(id);
        StringBuilder detail = new StringBuilder();
        commit.ifPresent(c -> detail.append("commit ").append(c, 0, Math.min(12, c.length())));
        branch.ifPresent(b -> detail.append(detail.length() > 0 ? ", " : "").append(b));
        detail.append(detail.length() > 0 ? ", " : "").append(at.toString(), 0, 10);
        return out.append(" (").append(detail).append(')').toString();
    }
}
