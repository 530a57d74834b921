package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.CheckReports;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.QueryPlans;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.rules.ResourceIdentity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The status an environment's resource graph shows for each resource: that of its newest node outside checks (a
 * check's findings are its issues). Every scheduled check adds a deployment, and every deployment a node for each
 * resource, so the history grows without end; the statuses must cost what the newest deployments hold, not the
 * history.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ResourceGraphStatusesTest {

    private static final String ENV = "/api/v1/orgs/{org}/projects/shop/envs/prod";

    @Inject
    EntityManager entityManager;

    @Inject
    LatestNodeStatuses statuses;

    @Test
    void eachResourceShowsItsNewestNodeOutsideChecksEvenWhenALaterDeploymentLeftItOut() {
        Scenario s = new Scenario(4);
        admin().body(Map.of("reconcile", Map.of("thing", "auto")))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200);
        s.manifest(graph("a", List.of(), "b", List.of()));
        deployAll(s);
        assertThat(shown(s)).containsExactlyInAnyOrderEntriesOf(Map.of("app.a", "succeeded", "app.b", "succeeded"));

        // a check that found drift on a: its nodes are not shown, and the reconcile it starts touches a only
        s.check(Map.of("app.a", CheckReports.IN_PLACE));
        String reconcile = await().atMost(Duration.ofSeconds(20))
                .until(() -> reconcileOf(s), Optional::isPresent)
                .get();
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs).containsOnlyKeys("app.a");
        s.runner.fail(jobs.get("app.a"), "the provider said no");
        assertThat(s.status(reconcile)).isEqualTo("failed");
        assertThat(shown(s))
                .as("a failed in the reconcile; b's newest node is in the first deployment, before it")
                .containsExactlyInAnyOrderEntriesOf(Map.of("app.a", "failed", "app.b", "succeeded"));

        String next = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(shown(s))
                .as("a forced deployment in flight")
                .containsExactlyInAnyOrderEntriesOf(Map.of("app.a", "queued", "app.b", "queued"));
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(next)).isEqualTo("succeeded");
        assertThat(shown(s)).containsExactlyInAnyOrderEntriesOf(Map.of("app.a", "succeeded", "app.b", "succeeded"));
    }

    @Test
    void theStatusesReadTheNewestDeploymentsNodesNotTheHistory() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of()));
        for (int i = 0; i < 4; i++) {
            deployAll(s);
            s.check(Map.of());
        }
        assertThat(Api.allPages(3, ENV + "/deployments", s.org))
                .as("the history, listed page by page")
                .hasSize(8)
                .isEqualTo(s.deployments());
        UUID environment = s.prodEnvironmentId();
        long read = QuarkusTransaction.requiringNew().call(() -> {
            // as planned for large tables (a test's few rows are cheapest to read whole)
            entityManager.createNativeQuery("set local enable_seqscan = off").executeUpdate();
            long before = nodeRowsRead();
            assertThat(statuses.of(
                            environment,
                            Set.of(
                                    new ResourceIdentity("thing", "default", "app.a"),
                                    new ResourceIdentity("thing", "default", "app.b"))))
                    .hasSize(2);
            return nodeRowsRead() - before;
        });
        assertThat(read)
                .as("node rows read for two resources, with 4 deployments and 4 checks of them in the history")
                .isLessThanOrEqualTo(2);
    }

    @Test
    void theDeploymentsAreWalkedThroughTheIndexOfThoseThatAreNotChecks() {
        assertThat(QueryPlans.readsOf(
                        entityManager, "deployment", LatestNodeStatuses.NEWEST_DEPLOYMENTS, UUID.randomUUID(), 0, 1))
                .containsExactly("deployment_changes_idx");
        assertThat(QueryPlans.readsOf(
                        entityManager,
                        "deployment_node",
                        LatestNodeStatuses.NODES_OF,
                        new UUID[] {UUID.randomUUID()},
                        new String[] {"thing"},
                        new String[] {"default"},
                        new String[] {"app.a"}))
                .containsExactly("deployment_node_identity_key");
    }

    /** The node rows this transaction has read so far (whole-table scans and index look-ups). */
    private long nodeRowsRead() {
        return ((Number) entityManager
                        .createNativeQuery("select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)"
                                + " from pg_stat_xact_user_tables where relname = 'deployment_node'")
                        .getSingleResult())
                .longValue();
    }

    private static void deployAll(Scenario s) {
        assertThat(s.status(s.deployAll())).isEqualTo("succeeded");
    }

    private static Optional<String> reconcileOf(Scenario s) {
        return s.deployments().stream()
                .filter(d -> "reconcile".equals(d.get("created_by")))
                .map(d -> (String) d.get("id"))
                .findFirst();
    }

    /** The status the resource graph shows, by resource id. */
    private static Map<String, String> shown(Scenario s) {
        Map<String, String> shown = new LinkedHashMap<>();
        admin().get(ENV + "/resource-graph", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("nodes")
                .forEach(node -> shown.put((String) node.get("id"), (String) node.get("status")));
        return shown;
    }
}
