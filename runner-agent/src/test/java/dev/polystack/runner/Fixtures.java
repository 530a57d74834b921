package dev.polystack.runner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The recorded OpenTofu outputs in src/test/resources/tofu-fixtures (MPL-2.0, see NOTICE.md there). */
final class Fixtures {

    private Fixtures() {}

    static String read(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/tofu-fixtures/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> lines(String name) {
        return read(name).lines().toList();
    }

    /** A control plane client of runner {@code r1} of {@code acme} for a local server, with a fresh key. */
    static ControlPlane controlPlaneAt(com.sun.net.httpserver.HttpServer server) throws Exception {
        return new ControlPlane(
                java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                "acme",
                "r1",
                "polystack",
                java.security.KeyPairGenerator.getInstance("Ed25519")
                        .generateKeyPair()
                        .getPrivate());
    }
}
