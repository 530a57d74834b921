package dev.polystack.platform.bootstrap;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;
import java.util.HexFormat;
import java.util.Optional;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.nio.charset.StandardCharsets;

/**
 * The embedded default database: real PostgreSQL binaries (from Maven Central) started in-process
 * on a loopback port, with its cluster kept under the data directory so a restart keeps everything.
 *
 * <p>When the JVM runs as root the PostgreSQL binaries drop privileges to {@code nobody}, which must
 * then be able to reach the cluster directory. If the data directory sits where {@code nobody} cannot
 * go (the usual case for {@code /root/.polystack}), the cluster is kept in
 * {@code /var/lib/polystack/postgres-<hash of the data directory>} instead and a symbolic link
 * {@code <data dir>/postgres} points at it. {@code POLYSTACK_EMBEDDED_DB_DIR} chooses another place.
 */
final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
    private static final Path SHARED_ROOT = Path.of("/var/lib/polystack");

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static EmbeddedDatabase start(Path dataDir, Optional<Path> override) {
        try {
            Files.createDirectories(dataDir);
            Path clusterDir = override.map(p -> p.toAbsolutePath().normalize())
                    .orElseGet(() -> clusterDirectory(dataDir));
            Files.createDirectories(clusterDir);
            if (runningAsRoot()) {
                prepareForNobody(clusterDir);
            }
            LOG.infof("Starting the embedded PostgreSQL with its data in %s", clusterDir);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(clusterDir.resolve("data"))
                    .setCleanDataDirectory(false)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "200")
                    .setRegisterShutdownHook(true)
                    .start();
            return new EmbeddedDatabase(postgres);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start the embedded PostgreSQL: " + e.getMessage()
                    + ". Set POLYSTACK_DB_URL to use an external PostgreSQL, or POLYSTACK_EMBEDDED_DB_DIR"
                    + " to keep the embedded cluster elsewhere.", e);
        }
    }

    /** Makes Quarkus' datasource use this database (see {@code polystack.db.*} in application.properties). */
    void exportConnectionProperties() {
        System.setProperty("polystack.db.url", postgres.getJdbcUrl("postgres", "postgres"));
        System.setProperty("polystack.db.user", "postgres");
        System.setProperty("polystack.db.password", "");
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warn("Could not stop the embedded PostgreSQL cleanly", e);
        }
    }

    private static Path clusterDirectory(Path dataDir) {
        Path inDataDir = dataDir.resolve("postgres");
        if (!runningAsRoot() || reachableByOthers(dataDir)) {
            return inDataDir;
        }
        Path shared = SHARED_ROOT.resolve("postgres-" + shortHash(dataDir.toString()));
        try {
            if (!Files.exists(inDataDir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(shared);
                Files.createSymbolicLink(inDataDir, shared);
                LOG.infof("%s is not reachable by the user 'nobody' the embedded PostgreSQL runs as under root;"
                        + " its cluster lives in %s (linked from %s)", dataDir, shared, inDataDir);
            }
            return inDataDir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare " + shared + " for the embedded PostgreSQL", e);
        }
    }

    private static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** True when every ancestor of {@code dir} lets others traverse it. */
    private static boolean reachableByOthers(Path dir) {
        try {
            for (Path p = dir.toRealPath(); p != null; p = p.getParent()) {
                PosixFileAttributes attributes = Files.readAttributes(p, PosixFileAttributes.class);
                if (!attributes.permissions().contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Under root the PostgreSQL binaries run as {@code nobody}: a new cluster directory is handed to that
     * user, and the shared parent only lets others traverse it, never list it.
     */
    private static void prepareForNobody(Path clusterDir) throws IOException {
        Path data = clusterDir.resolve("data");
        if (Files.exists(data)) {
            return;
        }
        UserPrincipal nobody = clusterDir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.createDirectories(data);
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(data, nobody);
        Files.setOwner(clusterDir, nobody);
        if (clusterDir.startsWith(SHARED_ROOT)) {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(SHARED_ROOT);
            if (permissions.add(PosixFilePermission.OTHERS_EXECUTE)) {
                Files.setPosixFilePermissions(SHARED_ROOT, permissions);
            }
        }
    }

    private static String shortHash(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
