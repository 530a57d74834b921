package dev.polystack.tests;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A PostgreSQL server the test controls (real PostgreSQL binaries from Maven Central): the control plane
 * uses it as its external database, and the test can stop and start it again on the same port and data.
 */
final class ExternalPostgres implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private EmbeddedPostgres postgres;

    ExternalPostgres(Path dataDir) throws IOException {
        this.dataDir = dataDir;
        this.port = Ports.free();
    }

    ExternalPostgres start() throws IOException {
        boolean fresh = !Files.exists(dataDir.resolve("PG_VERSION"));
        Files.createDirectories(dataDir);
        postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("max_connections", "300")
                .start();
        if (fresh) {
            try (Connection connection = DriverManager.getConnection(url("postgres"), "postgres", "");
                    Statement statement = connection.createStatement()) {
                statement.execute("create database polystack");
            } catch (SQLException e) {
                throw new IOException(e);
            }
        }
        return this;
    }

    void stop() throws IOException {
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    String jdbcUrl() {
        return url("polystack");
    }

    private String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "");
    }

    /** The settings that point a control plane at this database. */
    java.util.Map<String, String> environment() {
        return java.util.Map.of(
                "POLYSTACK_DB_URL", jdbcUrl(), "POLYSTACK_DB_USER", "postgres", "POLYSTACK_DB_PASSWORD", "");
    }

    @Override
    public void close() throws IOException {
        stop();
    }
}
