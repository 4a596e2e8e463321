package io.vitals.internal.probe.cgroupfs;

import static io.vitals.internal.probe.cgroupfs.ByteScan.isSpace;
import static io.vitals.internal.probe.cgroupfs.ByteScan.number;
import static io.vitals.internal.probe.cgroupfs.ByteScan.skipSpaces;
import static io.vitals.internal.probe.cgroupfs.ByteScan.text;
import static io.vitals.internal.probe.cgroupfs.ByteScan.tokenEnd;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Path;

import org.apiguardian.api.API;

/**
 * Parses {@code /proc/<pid>/net/dev}: two header lines, then one line per interface, {@code name: } followed by
 * eight receive and eight transmit counters. Old kernels glue large counters to the colon.
 */
@API(status = INTERNAL, since = "0.1")
public final class NetDevLines {

    private NetDevLines() {
    }

    /**
     * Sums received and sent bytes over every interface except loopback into {@code receivedSent}: docker's NET I/O
     * covers the interfaces of the container's network, which never include {@code lo}.
     */
    public static void parseNetDev(byte[] text, int length, long[] receivedSent, Path source) throws IOException {
        PairLines.parse(text, length, receivedSent, source, NetDevLines::addLine);
    }

    private static void addLine(byte[] text, int line, int end, long[] receivedSent, Path source)
            throws IOException {
        int colon = -1;
        for (int i = line; i < end; i++) {
            if (text[i] == '|') {
                return; // one of the two header lines
            }
            if (colon < 0 && text[i] == ':') {
                colon = i;
            }
        }
        if (colon < 0) {
            return; // no interface on this line
        }
        int name = skipSpaces(text, line, colon);
        int nameTo = colon;
        while (nameTo > name && isSpace(text[nameTo - 1])) {
            nameTo--;
        }
        boolean loopback = nameTo - name == 2 && text[name] == 'l' && text[name + 1] == 'o';
        if (!loopback) {
            addInterface(text, line, colon + 1, end, receivedSent, source);
        }
    }

    private static void addInterface(byte[] text, int line, int from, int end, long[] receivedSent, Path source)
            throws IOException {
        int field = skipSpaces(text, from, end);
        int index = 0;
        long received = 0;
        long sent = 0;
        try {
            while (field < end && index <= 8) {
                int fieldTo = tokenEnd(text, field, end);
                if (index == 0) {
                    received = number(text, field, fieldTo);
                } else if (index == 8) {
                    sent = number(text, field, fieldTo);
                }
                index++;
                field = skipSpaces(text, fieldTo, end);
            }
        } catch (NumberFormatException e) {
            throw new IOException("Bad byte count in '" + text(text, line, end) + "' of " + source, e);
        }
        if (index < 9) {
            throw new IOException("Unexpected line '" + text(text, line, end) + "' in " + source);
        }
        receivedSent[0] += received;
        receivedSent[1] += sent;
    }

    public static long[] parseNetDev(String text, Path source) throws IOException {
        return PairLines.parse(text, source, NetDevLines::parseNetDev);
    }
}
