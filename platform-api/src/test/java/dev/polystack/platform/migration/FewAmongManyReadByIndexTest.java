package dev.polystack.platform.migration;

import dev.polystack.platform.deployment.CheckScheduler;
import dev.polystack.platform.deployment.logs.LogRetention;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.JobRepository;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.QueryPlans;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.platform.testing.SentStatements;
import dev.polystack.platform.webhook.WebhookDispatcher;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.polystack.platform.testing.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The control plane's periodic work and several of its views look for a few rows among many: the jobs whose lease
 * expired, the deployments not yet ended, those awaiting approval in an organization, its scheduled checks running
 * now, the resources a module or runner still provisions. Every table they read grows with the history (a job,
 * nodes and a deployment per check, every few minutes per environment) or with the resources. An index must find
 * those few rows whatever the statement's parameters: PostgreSQL may plan a prepared statement once for any
 * parameters (a generic plan), and a partial index whose condition names a status helps such a plan only when the
 * statement names that status as a literal, not as a parameter. (With its default settings PostgreSQL keeps a plan
 * per execution when the generic plan looks far costlier, so the old statements were a risk and a planning cost at
 * every execution more than a measured slowdown; the approvals inbox and the delete guard had no index at all.)
 *
 * <p>The statements checked are the ones Hibernate sent while the work ran, picked by a part of their text, each
 * planned for any parameters with whole-table scans made the last resort ({@link QueryPlans#genericPlanOf}): a
 * whole-table scan of a growing table in such a plan means that no index can serve the statement.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class FewAmongManyReadByIndexTest {

    /** The tables that grow with the history or with the resources; a small table's whole read costs nothing. */
    private static final List<String> GROWING = List.of(
            "deployment",
            "deployment_node",
            "deployment_edge",
            "job",
            "job_log",
            "approval",
            "active_resource",
            "issue",
            "audit_event",
            "state_version",
            "webhook_delivery");

    private static final Pattern WHOLE_TABLE_SCAN = Pattern.compile("Seq Scan on (" + String.join("|", GROWING) + ")");

    @Inject
    JobRepository jobs;

    @Inject
    DeploymentRepository deployments;

    @Inject
    CheckScheduler checkScheduler;

    @Inject
    WebhookDispatcher webhooks;

    @Inject
    LogRetention logRetention;

    @Test
    void theSweepersReadsFindTheirRowsThroughAnIndex() {
        Scenario s = new Scenario(1);
        s.manifest(Map.of("a", List.of()));
        s.deploy();
        List<String> sent = SentStatements.during(() -> {
            QuarkusTransaction.requiringNew().run(() -> {
                jobs.expired(Instant.now(), 200);
                deployments.unfinished(500);
            });
            webhooks.deliverDue();
            logRetention.removeExpired(Instant.now(), 100);
        });
        assertReadThroughIndex(sent, "where status = 'running' and lease_expires_at <", "job_lease_idx");
        assertReadThroughIndex(
                sent,
                "status in ('queued', 'running', 'awaiting_approval') order by created_at",
                "deployment_active_idx");
        assertReadThroughIndex(sent, "d.status = 'pending' and d.next_attempt_at <=", null);
        assertReadThroughIndex(sent, "where logs_removed_at is null", "deployment_logs_kept_idx");
    }

    @Test
    void pendingApprovalsAndTheEngineDiagnosticsFindTheirRowsThroughAnIndex() {
        Scenario s = new Scenario(1);
        List<String> sent = SentStatements.during(() -> {
            admin().get("/api/v1/orgs/{org}/approvals", s.org).then().statusCode(200);
            admin().get("/api/v1/admin/engine").then().statusCode(200);
        });
        assertReadThroughIndex(sent, "and status = 'awaiting_approval'", "deployment_awaiting_approval_idx");
        assertReadThroughIndex(sent, "where d.status = 'queued' group by", null);
        assertReadThroughIndex(sent, "where j.status = 'queued' and j.created_at <", null);
    }

    @Test
    void theOrganizationsRunningChecksAreCountedThroughAnIndex() {
        Scenario s = new Scenario(1);
        s.manifest(Map.of("a", List.of()));
        s.deployAll();
        admin().body(Map.of("checks", Map.of("interval_minutes", 30)))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200);
        List<String> sent = SentStatements.during(
                () -> checkScheduler.startDue(Instant.now().plus(Duration.ofHours(1))));
        assertReadThroughIndex(
                sent, "mode = 'check' and status in ('queued', 'running')", "deployment_running_checks_idx");
        // the check it started is not left for the sweeper of later tests to advance
        s.deployments().stream()
                .filter(deployment -> "check".equals(deployment.get("mode")))
                .forEach(check -> admin().post(
                                "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/cancel",
                                s.org,
                                check.get("id"))
                        .then()
                        .statusCode(200));
    }

    @Test
    void theResourcesThatStillUseAModuleOrARunnerAreFoundThroughAnIndex() {
        Scenario s = new Scenario(1);
        s.manifest(Map.of("a", List.of()));
        s.deployAll();
        List<String> sent = SentStatements.during(() -> {
            admin().delete("/api/v1/orgs/{org}/modules/thing", s.org).then().statusCode(409);
            admin().delete("/api/v1/orgs/{org}/runners/r1", s.org).then().statusCode(409);
        });
        assertReadThroughIndex(sent, "from active_resource t where t.module_id =", "active_resource_module_idx");
        assertReadThroughIndex(sent, "from active_resource t where t.runner_id =", "active_resource_runner_idx");
    }

    /**
     * The statements sent that hold {@code part} (at least one: the work looked at really ran; the application's
     * other background work is left out) read no growing table whole in their generic plan, and, when {@code index}
     * is given, read that index: a plan may also avoid a whole-table scan through an index that holds far more rows
     * than the statement asks for, such as every unfinished deployment of the instance for one organization's.
     */
    private static void assertReadThroughIndex(List<String> sent, String part, String index) {
        List<String> statements =
                sent.stream().filter(sql -> sql.contains(part)).distinct().toList();
        assertThat(statements).as("the statements with %s", part).isNotEmpty();
        for (String sql : statements) {
            List<String> plan = QueryPlans.genericPlanOf(sql);
            assertThat(plan)
                    .as("the generic plan of %s", sql)
                    .noneMatch(node -> WHOLE_TABLE_SCAN.matcher(node).find());
            if (index != null) {
                assertThat(plan)
                        .as("the generic plan of %s", sql)
                        .anyMatch(node -> (node + " ").contains(" using " + index + " "));
            }
        }
    }
}
