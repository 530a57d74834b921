package dev.polystack.platform.migration;

import dev.polystack.platform.deployment.CheckScheduler;
import dev.polystack.platform.deployment.logs.LogRetention;
import dev.polystack.platform.deployment.model.DeploymentMode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * statement names that status as a literal, not as a parameter.
 *
 * <p>The statements checked are the ones Hibernate sent while the work ran (the sweeper's included, which runs every
 * second in this profile), each planned for any parameters with whole-table scans made the last resort
 * ({@link QueryPlans#genericPlanOf}): a whole-table scan of a growing table in such a plan means that no index can
 * serve the statement.
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
        UUID environment = s.prodEnvironmentId();
        List<String> sent = SentStatements.during(() -> {
            QuarkusTransaction.requiringNew().run(() -> {
                jobs.expired(Instant.now(), 200);
                deployments.unfinished(500);
                deployments.head(environment);
                deployments.unfinished(environment, DeploymentMode.DEPLOY);
            });
            webhooks.deliverDue();
            logRetention.removeExpired(Instant.now(), 100);
        });
        assertNoWholeTableScans(sent, "from job", "from deployment", "webhook_delivery");
    }

    @Test
    void pendingApprovalsAndTheEngineDiagnosticsFindTheirRowsThroughAnIndex() {
        Scenario s = new Scenario(1);
        List<String> sent = SentStatements.during(() -> {
            admin().get("/api/v1/orgs/{org}/approvals", s.org).then().statusCode(200);
            admin().get("/api/v1/admin/engine").then().statusCode(200);
        });
        assertNoWholeTableScans(sent, "from deployment");
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
        assertNoWholeTableScans(sent, "from deployment");
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
        assertNoWholeTableScans(sent, "from active_resource");
    }

    /**
     * No statement sent reads a whole growing table in its generic plan; each of {@code expected} (a part of a
     * statement's text) was among the statements checked, so that the work looked at really ran.
     */
    private static void assertNoWholeTableScans(List<String> sent, String... expected) {
        List<String> reading = sent.stream()
                .filter(sql -> GROWING.stream().anyMatch(table -> sql.matches("(?s).*\\b" + table + "\\b.*")))
                .filter(sql -> sql.stripLeading().matches("(?is)(select|with|update|delete|insert)\\b.*"))
                .distinct()
                .toList();
        for (String part : expected) {
            assertThat(reading).as("statements with %s", part).anyMatch(sql -> sql.contains(part));
        }
        List<String> scans = new ArrayList<>();
        for (String sql : reading) {
            List<String> plan = QueryPlans.genericPlanOf(sql);
            if (plan.stream().anyMatch(node -> WHOLE_TABLE_SCAN.matcher(node).find())) {
                scans.add(sql + "\n    " + String.join("\n    ", plan));
            }
        }
        assertThat(scans)
                .as("statements whose generic plan reads a whole growing table")
                .isEmpty();
    }
}
