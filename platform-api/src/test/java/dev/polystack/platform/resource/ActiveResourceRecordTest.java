package dev.polystack.platform.resource;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * What a successful apply records as the environment's active resource, across deployments: the first apply
 * creates the row, a later one replaces what it holds (module version, spec, outputs, sensitive names, OpenTofu
 * resources, last deployment) and keeps its id and creation time; dependents resolve with the outputs just
 * recorded.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ActiveResourceRecordTest {

    @Inject
    AgroalDataSource dataSource;

    record Row(
            String id,
            OffsetDateTime createdAt,
            OffsetDateTime updatedAt,
            String lastDeployment,
            String sensitiveOutputs,
            String tofuResources,
            String inputsDigest,
            int count) {}

    @Test
    void aLaterApplyReplacesTheRecordAndKeepsItsIdentity() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of(), "b", List.of("a")), Map.of("a", 1));
        String first = s.deploy();
        Map<String, Object> a = s.claimAll().get("app.a");
        s.runner.succeed(a, Map.of("name", "first"), Map.of(), "terraform_data.one");
        Map<String, Object> b = s.claimAll().get("app.b");
        assertThat(b.get("inputs").toString()).contains("first");
        s.succeed(b);
        assertThat(s.status(first)).isEqualTo("succeeded");
        Row before = row(s.org, "app.a");
        assertThat(before.lastDeployment()).isEqualTo(first);
        assertThat(before.sensitiveOutputs()).isEqualTo("[]");
        assertThat(before.tofuResources()).contains("terraform_data.one");
        assertThat(before.count()).isEqualTo(2);

        s.manifest(graph("a", List.of(), "b", List.of("a")), Map.of("a", 2));
        String second = s.deploy();
        a = s.claimAll().get("app.a");
        s.runner.succeed(a, Map.of("name", "second"), Map.of("pw", "pw-" + s.org), "terraform_data.two");
        b = s.claimAll().get("app.b");
        assertThat(b).as("b runs again: a's new outputs change its inputs").isNotNull();
        assertThat(b.get("inputs").toString())
                .as("the dependent resolves with the outputs the replaced record holds")
                .contains("second")
                .doesNotContain("first");
        s.succeed(b);
        assertThat(s.status(second)).isEqualTo("succeeded");

        Row after = row(s.org, "app.a");
        assertThat(after.id()).isEqualTo(before.id());
        assertThat(after.createdAt()).isEqualTo(before.createdAt());
        assertThat(after.updatedAt()).isAfter(before.updatedAt());
        assertThat(after.lastDeployment()).isEqualTo(second);
        assertThat(after.sensitiveOutputs()).isEqualTo("[\"pw\"]");
        assertThat(after.tofuResources()).contains("terraform_data.two").doesNotContain("terraform_data.one");
        assertThat(after.inputsDigest()).as("the new inputs' digest").isNotEqualTo(before.inputsDigest());
        assertThat(after.count()).as("replaced, not added").isEqualTo(2);
        admin().queryParam("outputs", true)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .body("nodes", hasSize(2))
                .body("nodes.find { it.id == 'app.a' }.outputs.name", equalTo("second"))
                .body("nodes.find { it.id == 'app.a' }.outputs.pw", equalTo("***"))
                .body("nodes.find { it.id == 'app.a' }.resources[0].address", equalTo("terraform_data.two"));
    }

    private Row row(String org, String resource) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement("""
                        select r.id::text, r.created_at, r.updated_at, r.last_deployment_id::text,
                               r.sensitive_outputs::text, r.tofu_resources::text,
                               r.inputs_digest,
                               (select count(*) from active_resource o where o.environment_id = r.environment_id)
                          from active_resource r
                          join environment e on e.id = r.environment_id
                          join organization g on g.id = e.org_id
                         where g.slug = ? and r.res_id = ?""")) {
            statement.setString(1, org);
            statement.setString(2, resource);
            try (ResultSet result = statement.executeQuery()) {
                assertThat(result.next()).as("an active resource " + resource).isTrue();
                return new Row(
                        result.getString(1),
                        result.getObject(2, OffsetDateTime.class),
                        result.getObject(3, OffsetDateTime.class),
                        result.getString(4),
                        result.getString(5),
                        result.getString(6),
                        result.getString(7),
                        result.getInt(8));
            }
        }
    }
}
