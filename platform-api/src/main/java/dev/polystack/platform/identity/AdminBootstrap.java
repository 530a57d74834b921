package dev.polystack.platform.identity;

import dev.polystack.platform.common.PolystackConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;

/**
 * On the first start against an empty database, creates the instance administrator and its token.
 * The token is written to {@code <data dir>/admin-token} (mode 0600) and printed once on the console;
 * a preset token ({@code POLYSTACK_BOOTSTRAP_ADMIN_TOKEN}) is used instead when given.
 */
@ApplicationScoped
public class AdminBootstrap {

    private static final Logger LOG = Logger.getLogger(AdminBootstrap.class);
    private static final long LOCK_KEY = 0x706f6c7973L; // any constant shared by all replicas

    @Inject
    PrincipalRepository principals;

    @Inject
    TokenService tokens;

    @Inject
    PolystackConfig config;

    @Inject
    EntityManager entityManager;

    @Inject
    Clock clock;

    void onStart(@Observes StartupEvent event) {
        String token = QuarkusTransaction.requiringNew().call(this::createAdministrator);
        if (token != null && config.bootstrap().adminToken().isEmpty()) {
            announce(token);
        }
    }

    /** Creates the administrator unless one exists; replicas starting together serialise on a lock. */
    private String createAdministrator() {
        entityManager
                .createNativeQuery("select pg_advisory_xact_lock(?1)")
                .setParameter(1, LOCK_KEY)
                .getSingleResult();
        if (principals.instanceAdminExists()) {
            return null;
        }
        String value = config.bootstrap().adminToken().orElseGet(TokenService::newTokenValue);
        if (!value.startsWith(TokenService.PREFIX) || value.length() < 36) {
            throw new IllegalStateException(
                    "polystack.bootstrap.admin-token must start with `pst_` and carry at least 32 characters");
        }
        Principal admin = Principal.instanceAdmin(clock.instant());
        principals.persist(admin);
        tokens.store(admin.id(), "bootstrap", value, null, admin.id());
        return value;
    }

    private void announce(String token) {
        Path file = config.dataDir().resolve("admin-token");
        try {
            Files.createDirectories(config.dataDir());
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, token + "\n", StandardOpenOption.TRUNCATE_EXISTING);
            LOG.infof("Created the instance administrator; its token is in %s", file);
        } catch (IOException e) {
            LOG.warnf("Created the instance administrator but could not write %s: %s", file, e.getMessage());
        }
        if (config.bootstrap().printAdminToken()) {
            // Printed on the console only, never through the log system, and only this once.
            System.out.println();
            System.out.println("  Polystack instance administrator token (shown once, also in " + file + "):");
            System.out.println("    " + token);
            System.out.println();
        }
    }
}
