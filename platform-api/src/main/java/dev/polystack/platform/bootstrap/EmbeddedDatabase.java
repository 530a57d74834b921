package dev.polystack.platform.bootstrap;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import static java.util.stream.Collectors.joining;

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
        return start(dataDir, override, EmbeddedDatabase::freePort);
    }

    /** How many ports a start tries when each was in use by the time PostgreSQL went to listen on it. */
    static final int PORT_ATTEMPTS = 3;

    /**
     * Starts it on a port {@code ports} chooses. A port is chosen free, but another process may take it before
     * PostgreSQL listens on it; then PostgreSQL cannot start, and the start is tried again on another port.
     */
    static EmbeddedDatabase start(Path dataDir, Optional<Path> override, IntSupplier ports) {
        Path clusterDir = override.map(p -> p.toAbsolutePath().normalize()).orElse(dataDir.resolve("postgres"));
        List<Integer> taken = new ArrayList<>();
        while (true) {
            int port = ports.getAsInt();
            try {
                Files.createDirectories(clusterDir);
                stopOrphan(clusterDir.resolve("data"));
                LOG.info(() -> "Starting the embedded PostgreSQL on port " + port + " with its data in " + clusterDir);
                return new EmbeddedDatabase(EmbeddedPostgres.builder()
                        .setDataDirectory(clusterDir.resolve("data"))
                        .setCleanDataDirectory(false)
                        .setPort(port)
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .setServerConfig("max_connections", "200")
                        // the library's defaults are a test database's (fsync and synchronous commits off): this one
                        // holds an installation's data, so a commit it acknowledged survives a crash of the machine
                        .setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .setRegisterShutdownHook(true)
                        .start());
            } catch (IOException | IllegalStateException e) {
                boolean inUse = listening(port);
                if (inUse) {
                    taken.add(port);
                    if (taken.size() < PORT_ATTEMPTS) {
                        LOG.warning(() -> "Port " + port + " is in use, and the embedded PostgreSQL could not"
                                + " listen on it; trying another port");
                        releaseLock(clusterDir.resolve("data"));
                        continue;
                    }
                }
                throw new IllegalStateException(
                        "Could not start the embedded PostgreSQL in " + clusterDir + ": "
                                + (inUse ? portsInUse(taken) : e.getMessage())
                                + ". Set POLYSTACK_DB_URL to use an external PostgreSQL, or POLYSTACK_EMBEDDED_DB_DIR"
                                + " to keep the embedded cluster elsewhere.",
                        e);
            }
        }
    }

    /**
     * The library's start that failed keeps its lock of the data directory ({@code epg-lock}) in this JVM, and
     * the next start would fail on it. That lock is this process's own: the file goes, and the next start locks a
     * new one. (Another process that held it would have failed the start before PostgreSQL, with a free port.)
     */
    private static void releaseLock(Path dataDir) {
        try {
            Files.deleteIfExists(dataDir.resolve("epg-lock"));
        } catch (IOException e) {
            // the next start then fails on the lock, and says so
            LOG.warning(() -> "Could not remove the lock of the failed start: " + e.getMessage());
        }
    }

    private static String portsInUse(List<Integer> ports) {
        return (ports.size() == 1 ? "port " : "ports ")
                + ports.stream().map(String::valueOf).collect(joining(", "))
                + (ports.size() == 1 ? " was" : " were")
                + " in use, and it could not listen there";
    }

    /** Whether something listens on the loopback port (it cannot be bound). */
    private static boolean listening(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return false;
        } catch (IOException e) {
            return true;
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

    /** A port of the loopback interface that was free a moment ago. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Could not start the embedded PostgreSQL: no free port on the loopback interface (" + e.getMessage()
                            + "). Set POLYSTACK_DB_URL to use an external PostgreSQL.",
                    e);
        }
    }

    int port() {
        return postgres.getPort();
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
