package dev.polystack.platform.bootstrap;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point of the packaged control plane. When no external database is configured it starts the
 * embedded PostgreSQL before Quarkus reads its datasource configuration, and stops it after Quarkus
 * has shut down.
 */
@QuarkusMain
public final class PolystackMain {

    private PolystackMain() {
    }

    public static void main(String... args) {
        StartupSettings settings = StartupSettings.fromEnvironment();
        EmbeddedDatabase embedded = null;
        if (settings.externalDatabaseUrl().isEmpty()) {
            embedded = EmbeddedDatabase.start(settings.dataDir(), settings.embeddedDatabaseDir());
            embedded.exportConnectionProperties();
        }
        try {
            Quarkus.run(args);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }
}
