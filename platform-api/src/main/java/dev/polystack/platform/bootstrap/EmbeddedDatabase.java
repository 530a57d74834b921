package dev.polystack.platform.bootstrap;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded default database: real PostgreSQL binaries (from Maven Central) started on a loopback
 * port, with its cluster in {@code <data dir>/postgres} so that a restart keeps everything.
 *
 * <p>Under root, the binaries run inside a new user namespace ({@code unshare -U}) where they appear
 * as {@code nobody}; their file accesses are still checked against root's own uid, so a cluster in a
 * root-owned directory such as {@code /root/.polystack} works, while one in a directory owned by
 * another user with restrictive permissions does not. {@code POLYSTACK_EMBEDDED_DB_DIR} puts the
 * cluster elsewhere.
 */
final class EmbeddedDatabase implements AutoCloseable {

    /**
     * java.util.logging, not JBoss Logging: this class runs before Quarkus starts and configures logging, and it
     * quietens io.zonky's logger, held here so that its level stays set.
     */
    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class.getName());
    /** initdb and postmaster chatter goes to INFO; keep it out of the console before Quarkus configures logging. */
    private static final Logger ZONKY = Logger.getLogger("io.zonky");

    static {
        ZONKY.setLevel(Level.WARNING);
    }

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static EmbeddedDatabase start(Path dataDir, Optional<Path> override) {
        Path clusterDir = override.map(p -> p.toAbsolutePath().normalize()).orElse(dataDir.resolve("postgres"));
        try {
            Files.createDirectories(clusterDir);
            stopOrphan(clusterDir.resolve("data"));
            LOG.info(() -> "Starting the embedded PostgreSQL with its data in " + clusterDir);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(clusterDir.resolve("data"))
                    .setCleanDataDirectory(false)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "200")
                    // the library's defaults are a test database's (fsync and synchronous commits off): this one
                    // holds an installation's data, so a commit it acknowledged survives a crash of the machine
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setRegisterShutdownHook(true)
                    .start();
            return new EmbeddedDatabase(postgres);
        } catch (IOException | IllegalStateException e) {
            throw new IllegalStateException(
                    "Could not start the embedded PostgreSQL in " + clusterDir + ": " + e.getMessage()
                            + ". Set POLYSTACK_DB_URL to use an external PostgreSQL, or POLYSTACK_EMBEDDED_DB_DIR"
                            + " to keep the embedded cluster elsewhere.",
                    e);
        }
    }

    /**
     * A PostgreSQL left running on this data directory by a Polystack that was killed (kill -9, OOM) would
     * keep the new one from starting: stop it the way PostgreSQL is meant to be stopped fast (SIGINT:
     * roll back open transactions, write a checkpoint), and wait for it.
     */
    static void stopOrphan(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        } catch (IOException | RuntimeException e) {
            return; // unreadable: PostgreSQL itself decides whether the lock is stale
        }
        Optional<ProcessHandle> orphan = ProcessHandle.of(pid)
                .filter(p -> p.info().command().map(c -> c.contains("postgres")).orElse(false));
        if (orphan.isEmpty()) {
            return; // stale lock file: PostgreSQL removes it on start
        }
        LOG.warning(() -> "The embedded PostgreSQL of a previous run (pid " + pid
                + ") is still running, probably because Polystack was killed; stopping it");
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(pid))
                    .inheritIO()
                    .start()
                    .waitFor();
            orphan.get().onExit().get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | ExecutionException | TimeoutException e) {
            LOG.warning(() -> "Could not stop the PostgreSQL of the previous run (pid " + pid + "): " + e.getMessage()
                    + "; killing it");
            orphan.get().destroyForcibly();
        }
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    /** Makes Quarkus' datasource use this database (see {@code polystack.db.*} in application.properties). */
    void exportConnectionProperties() {
        System.setProperty("polystack.db.url", jdbcUrl());
        System.setProperty("polystack.db.user", "postgres");
        System.setProperty("polystack.db.password", "");
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Could not stop the embedded PostgreSQL cleanly", e);
        }
    }
}
