package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.platform.testing.SentStatements;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deployment's view (its answer to a create, a wait or a read, and each row of the list) shows what its nodes are
 * doing, and reads only that: not the nodes' specs and sealed inputs, which a 500-resource deployment would parse and
 * decrypt 500 of at every read.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class DeploymentViewReadTest {

    @Test
    void aDeploymentsViewAndItsListShowTheNodesWithoutLoadingThemWhole() {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String id = s.deploy();
        s.succeed(s.claimAll().get("app.a"));
        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second).containsOnlyKeys("app.b");
        s.succeed(second.get("app.b"));
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() -> s.status(id).equals("succeeded"));
        String deployments = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments";
        AtomicReference<JsonPath> one = new AtomicReference<>();
        AtomicReference<JsonPath> list = new AtomicReference<>();
        List<String> sent = SentStatements.during(() -> {
            one.set(admin().get(deployments + "/{id}", s.org, id)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath());
            list.set(admin().get(deployments, s.org)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath());
        });
        JsonPath view = one.get();
        assertThat(view.getList("nodes.id", String.class)).containsExactly("app.a", "app.b");
        assertThat(view.getList("nodes.status", String.class)).containsExactly("succeeded", "succeeded");
        assertThat(view.getList("nodes.runner_id", String.class)).containsExactly("r1", "r1");
        assertThat(view.getList("nodes.operation", String.class)).containsExactly("apply", "apply");
        assertThat(view.getList("nodes.action", String.class)).containsExactly("create", "create");
        assertThat(view.getList("nodes.attempt", Integer.class)).containsExactly(1, 1);
        assertThat(view.getString("nodes[1].finished_at")).isNotNull();
        assertThat(view.getInt("progress.succeeded")).isEqualTo(2);
        assertThat(view.getInt("progress.done")).isEqualTo(2);
        assertThat(view.getInt("progress.total")).isEqualTo(2);
        assertThat(list.get().getList("items.id", String.class)).contains(id);
        assertThat(sent.stream().map(SentStatements::oneLine))
                .as("statements that load a deployment's nodes with their specs")
                .noneMatch(sql -> sql.contains("from deployment_node") && sql.contains(".spec"));
    }
}
