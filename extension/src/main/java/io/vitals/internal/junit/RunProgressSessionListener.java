package io.vitals.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Gives each launcher session a {@link RunProgress}, listening to its executions and kept in the session's store,
 * where the extension finds it. Registered through {@code META-INF/services}; public only for the
 * {@link java.util.ServiceLoader}.
 */
@API(status = INTERNAL, since = "0.1")
public final class RunProgressSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            RunProgress progress = new RunProgress();
            // the session's store, under the key and namespace the extension asks its LAUNCHER_SESSION store for
            session.getStore().put(Namespace.create(Scopes.NAMESPACE.getParts()), RunProgress.KEY, progress);
            session.getLauncher().registerTestExecutionListeners(progress);
        } catch (LinkageError olderPlatform) {
            // a launcher before JUnit 5.13 has no session store: the run's files are then written at its close
        }
    }
}
