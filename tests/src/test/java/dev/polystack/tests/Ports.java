package dev.polystack.tests;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the processes the tests start, which bind them seconds later. A port the system handed out for {@code
 * new ServerSocket(0)} comes from its ephemeral range (32768–60999 on Linux), the same range every outgoing
 * connection takes its local port from: in those seconds another connection of the machine took one (a control plane
 * then failed to start, "port in use", in CI on 6 December 2026). These come from below that range instead, where
 * nothing binds without asking for the port by number, and are checked free when chosen.
 */
final class Ports {

    private static final int FIRST = 20_000;
    private static final int LAST = 32_767;

    private Ports() {}

    static int free() throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = random.nextInt(FIRST, LAST + 1);
            try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // another one
            }
        }
        throw new IOException("no free port between " + FIRST + " and " + LAST + " after 200 tries");
    }
}
