package dev.polystack.platform.migration;

import dev.polystack.platform.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several replicas start at once against an empty database (a Kubernetes rollout): their migrations must
 * not collide. Flyway serialises them with a PostgreSQL advisory lock; this checks that it does, with the
 * real migrations on a fresh database.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ConcurrentMigrationTest {

    private static final int REPLICAS = 4;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String user;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    @Test
    void replicasMigratingAnEmptyDatabaseAtOnceApplyEveryMigrationExactlyOnce() throws Exception {
        String database = "rollout_" + System.nanoTime();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("create database " + database);
        }
        String freshUrl = url.replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1");
        CyclicBarrier start = new CyclicBarrier(REPLICAS);
        ExecutorService replicas = Executors.newFixedThreadPool(REPLICAS);
        List<Future<Integer>> applied = new ArrayList<>();
        try {
            for (int i = 0; i < REPLICAS; i++) {
                Callable<Integer> replica = () -> {
                    Flyway flyway = Flyway.configure()
                            .dataSource(freshUrl, user, password.orElse(""))
                            .locations("classpath:db/migration")
                            .validateOnMigrate(true)
                            .load();
                    start.await(30, TimeUnit.SECONDS);
                    return flyway.migrate().migrationsExecuted;
                };
                applied.add(replicas.submit(replica));
            }
            int total = 0;
            for (Future<Integer> result : applied) {
                total += result.get(120, TimeUnit.SECONDS);
            }
            int migrations = Flyway.configure()
                    .dataSource(freshUrl, user, password.orElse(""))
                    .locations("classpath:db/migration")
                    .load()
                    .info()
                    .all()
                    .length;
            System.out.printf(
                    "%d replicas migrated an empty database at once: %d migrations applied in total, %d exist%n",
                    REPLICAS, total, migrations);
            assertThat(total)
                    .as("every migration applied by exactly one replica")
                    .isEqualTo(migrations);
            try (Connection connection = DriverManager.getConnection(freshUrl, user, password.orElse(""));
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery(
                            "select count(*), count(distinct version), bool_and(success) from flyway_schema_history where version is not null")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(migrations);
                assertThat(rows.getInt(2)).isEqualTo(migrations);
                assertThat(rows.getBoolean(3)).isTrue();
            }
        } finally {
            replicas.shutdownNow();
            try (Connection connection = dataSource.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("drop database if exists " + database + " with (force)");
            }
        }
    }
}
