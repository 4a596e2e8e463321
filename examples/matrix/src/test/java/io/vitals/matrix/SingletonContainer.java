package io.vitals.matrix;

/** Started once per JVM, in a static initializer, as Testcontainers' singleton-container pattern does. */
final class SingletonContainer {

    static final FixtureContainer BOX = new FixtureContainer();

    static {
        BOX.start();
        // the JVM's end removes it: Ryuk does that where it runs; here (Ryuk off) a shutdown hook does
        Runtime.getRuntime().addShutdownHook(new Thread(BOX::stop));
    }

    private SingletonContainer() {
    }
}
