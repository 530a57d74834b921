package dev.polystack.platform.bootstrap;

import dev.polystack.platform.common.web.RouterProblems;
import dev.polystack.platform.crypto.KeyRotationCommand;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point of the packaged control plane. When no external database is configured it starts the
 * embedded PostgreSQL before Quarkus reads its datasource configuration, and stops it after Quarkus
 * has shut down. {@code rotate-keys} re-encrypts all sealed values under the current key and exits.
 */
@QuarkusMain
public final class PolystackMain {

    private PolystackMain() {}

    public static void main(String... args) {
        StartupSettings settings = StartupSettings.fromEnvironment();
        RouterProblems.takeOverUriValidation();
        String issuer = System.getenv("POLYSTACK_OIDC_ISSUER");
        if (issuer != null
                && !issuer.isBlank()
                && System.getProperty("polystack.oidc.enabled") == null
                && System.getenv("POLYSTACK_OIDC_ENABLED") == null) {
            System.setProperty("polystack.oidc.enabled", "true");
        }
        EmbeddedDatabase embedded = null;
        if (settings.externalDatabaseUrl().isEmpty()) {
            embedded = EmbeddedDatabase.start(settings.dataDir(), settings.embeddedDatabaseDir());
            embedded.exportConnectionProperties();
        }
        try {
            if (args.length > 0 && args[0].equals("rotate-keys")) {
                // a one-off command: no port of its own, no background work
                System.setProperty("quarkus.http.port", "0");
                System.setProperty("quarkus.scheduler.enabled", "false");
                Quarkus.run(KeyRotationCommand.class, args);
            } else {
                Quarkus.run(args);
            }
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
