package dev.polystack.platform.migration;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * V31 writes every active resource's dependencies again from its spec, as the engine now records them: a resource a
 * reconcile applied had lost its dependencies on the resources that had not drifted.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class DependenciesFromSpecsMigrationTest {

    private static final String OF_ORGANIZATION = """
            environment_id in (select e.id from environment e join project p on p.id = e.project_id
                               join organization o on o.id = p.org_id where o.slug = ?)""";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theDependenciesLostByAReconciledResourceAreWrittenAgainFromItsSpecAsTheEngineWritesThem() throws Exception {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a"), "c", List.of("b", "a")));
        String deployment = s.deploy();
        Map<String, Map<String, Object>> jobs;
        while (!(jobs = s.claimAll()).isEmpty()) {
            jobs.values().forEach(s::succeed);
        }
        assertThat(s.status(deployment)).isEqualTo("succeeded");
        try (Connection connection = dataSource.getConnection()) {
            Map<String, String> recorded = dependencies(connection, s.org);
            assertThat(recorded)
                    .as("what the engine recorded")
                    .containsEntry("app.a", "[]")
                    .hasSize(3);
            assertThat(recorded.get("app.c")).contains("resources.a", "resources.b");

            // as a reconcile of b and c recorded them before the fix: none
            try (PreparedStatement lose = connection.prepareStatement(
                    "update active_resource set dependencies = '[]' where res_id <> 'app.a' and " + OF_ORGANIZATION)) {
                lose.setString(1, s.org);
                assertThat(lose.executeUpdate()).isEqualTo(2);
            }
            try (Statement migrate = connection.createStatement()) {
                migrate.executeUpdate(migration());
            }
            assertThat(dependencies(connection, s.org))
                    .as("written again exactly as the engine writes them")
                    .isEqualTo(recorded);
        }
    }

    private static Map<String, String> dependencies(Connection connection, String org) throws SQLException {
        Map<String, String> dependencies = new TreeMap<>();
        try (PreparedStatement read = connection.prepareStatement(
                "select res_id, dependencies::text from active_resource where " + OF_ORGANIZATION)) {
            read.setString(1, org);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    dependencies.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return dependencies;
    }

    private static String migration() throws IOException {
        try (InputStream in = DependenciesFromSpecsMigrationTest.class.getResourceAsStream(
                "/db/migration/V31__dependencies_from_specs.sql")) {
            assertThat(in).as("the migration on the class path").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
