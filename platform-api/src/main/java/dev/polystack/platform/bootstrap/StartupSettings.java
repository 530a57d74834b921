package dev.polystack.platform.bootstrap;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The few settings that must be known before Quarkus starts: they decide whether an embedded
 * PostgreSQL is needed and where it keeps its files. Read from system properties first, then from
 * the environment, with the same names Quarkus uses ({@code polystack.db.url} or
 * {@code POLYSTACK_DB_URL}).
 */
record StartupSettings(Path dataDir, Optional<String> externalDatabaseUrl, Optional<Path> embeddedDatabaseDir) {

    static StartupSettings fromEnvironment() {
        Path dataDir = setting("polystack.data-dir", "POLYSTACK_DATA_DIR")
                .map(Path::of)
                .orElseGet(() -> Path.of(System.getProperty("user.home"), ".polystack"));
        return new StartupSettings(
                dataDir.toAbsolutePath().normalize(),
                setting("polystack.db.url", "POLYSTACK_DB_URL"),
                setting("polystack.embedded-db.dir", "POLYSTACK_EMBEDDED_DB_DIR")
                        .map(Path::of));
    }

    private static Optional<String> setting(String property, String environmentVariable) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(environmentVariable);
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}
