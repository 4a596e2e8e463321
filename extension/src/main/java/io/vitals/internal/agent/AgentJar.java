package io.vitals.internal.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Vitals' own classes as one jar, and that jar as the tar archive the Engine API copies into a container: the
 * agent image holds only a JRE, and the agent runs the very classes of the Vitals the tests use. From a jar (a
 * user's build) the jar is sent as it is; from a class directory (Vitals' own tests) it is zipped first.
 */
final class AgentJar {

    /** Where the jar lands in the agent container. */
    static final String PATH_IN_CONTAINER = "/vitals/vitals.jar";

    private AgentJar() {
    }

    /** The jar or class directory {@link AgentMain} was loaded from, as jar bytes. */
    static byte[] ofThisVitals() throws IOException {
        Path source;
        try {
            source = Path.of(AgentMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot tell where Vitals' classes were loaded from: " + e.getMessage(), e);
        }
        return Files.isDirectory(source) ? zip(source) : Files.readAllBytes(source);
    }

    private static byte[] zip(Path classes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 20);
        try (JarOutputStream jar = new JarOutputStream(bytes); Stream<Path> walk = Files.walk(classes)) {
            List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
            for (Path file : files) {
                jar.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, jar);
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** A tar archive holding {@code vitals/} and {@code vitals/vitals.jar}, to be extracted at {@code /}. */
    static byte[] tarOf(byte[] jar) throws IOException {
        ByteArrayOutputStream tar = new ByteArrayOutputStream(jar.length + 4096);
        header(tar, "vitals/", 0, '5', 0755);
        header(tar, "vitals/vitals.jar", jar.length, '0', 0644);
        tar.write(jar);
        tar.write(new byte[(512 - jar.length % 512) % 512]);
        tar.write(new byte[1024]); // two zero blocks end the archive
        return tar.toByteArray();
    }

    /** One ustar header block. */
    private static void header(OutputStream out, String name, long size, char type, int mode) throws IOException {
        byte[] block = new byte[512];
        put(block, 0, name);
        put(block, 100, String.format("%07o", mode));
        put(block, 108, "0000000");
        put(block, 116, "0000000");
        put(block, 124, String.format("%011o", size));
        put(block, 136, String.format("%011o", System.currentTimeMillis() / 1000));
        for (int i = 148; i < 156; i++) {
            block[i] = ' '; // the checksum is computed with its own field as spaces
        }
        block[156] = (byte) type;
        put(block, 257, "ustar");
        put(block, 263, "00");
        long sum = 0;
        for (byte b : block) {
            sum += b & 0xff;
        }
        put(block, 148, String.format("%06o", sum));
        block[154] = 0;
        block[155] = ' ';
        out.write(block);
    }

    private static void put(byte[] block, int offset, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, block, offset, bytes.length);
    }
}
