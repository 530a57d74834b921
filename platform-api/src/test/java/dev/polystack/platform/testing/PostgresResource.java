package dev.polystack.platform.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.IOException;
import java.util.Map;

/**
 * A real PostgreSQL for the tests: a Testcontainers container where Docker runs, the embedded
 * binaries from Maven Central where it does not. Both are PostgreSQL 17.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    public static final String ADMIN_TOKEN = "pst_test-admin-token-0123456789abcdefghijklmnopqrstuv";

    private EmbeddedPostgres embedded;
    private PostgreSQLContainer container;

    @Override
    public Map<String, String> start() {
        String url;
        String user;
        String password;
        if (dockerAvailable()) {
            container = new PostgreSQLContainer("postgres:17-alpine");
            container.start();
            url = container.getJdbcUrl();
            user = container.getUsername();
            password = container.getPassword();
        } else {
            try {
                embedded = EmbeddedPostgres.builder()
                        .setServerConfig("max_connections", "300")
                        // as in production (and in the container): the library turns synchronous commits off
                        .setServerConfig("synchronous_commit", "on")
                        .start();
            } catch (IOException e) {
                throw new IllegalStateException("could not start the embedded PostgreSQL", e);
            }
            url = embedded.getJdbcUrl("postgres", "postgres");
            user = "postgres";
            password = "";
        }
        return Map.of(
                "polystack.db.url", url,
                "polystack.db.user", user,
                "polystack.db.password", password,
                "polystack.bootstrap.admin-token", ADMIN_TOKEN,
                "polystack.data-dir",
                        System.getProperty("java.io.tmpdir") + "/polystack-test-"
                                + ProcessHandle.current().pid());
    }

    private static boolean dockerAvailable() {
        if (Boolean.getBoolean("test.no-docker")) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            return false;
        }
    }

    @Override
    public void stop() {
        try {
            if (embedded != null) {
                embedded.close();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } finally {
            if (container != null) {
                container.stop();
            }
        }
    }
}
