package dev.polystack.platform.migration;

import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.QueryPlans;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.platform.testing.SentStatements;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The issue list and the audit log grow without end (resolved issues stay, and the log has no retention), and so
 * do an environment's deployments (every scheduled check adds one), a resource's state versions and a webhook's
 * deliveries; their pages are read newest first. An index must offer each page in that order, bounded by the list's
 * filters and by where the page starts, so that reading a page stops at its limit: without one, a page of a large
 * list reads and sorts every row the filters leave. The filters that pick a few rows among many (open issues, an
 * audit event's actor or action) must be an index's too, or a page of a rare actor's events reads the
 * organization's whole log.
 *
 * <p>Each list is asked through the API; the plan checked is that of the statement Hibernate sent, as PostgreSQL
 * plans it for any parameters (a generic plan), with whole-table scans and sorts made the last resort
 * ({@link QueryPlans#genericPlanOf}). Which plan the planner takes on a real table depends on its statistics; these
 * tests show that the ordered read exists, which a large table's statistics make the cheapest.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ListsReadInOrderTest {

    private static final String CURSOR =
            "page_token=" + PageRequest.tokenFor(Instant.parse("2026-12-01T00:00:00Z") + "|" + UUID.randomUUID());

    private static final String ORG_ISSUES = "/api/v1/orgs/{org}/issues";

    private static final String ENV_ISSUES = "/api/v1/orgs/{org}/projects/shop/envs/prod/issues";

    private static final String AUDIT = "/api/v1/orgs/{org}/audit-events";

    /** The instance's own log: what no organization's log holds, its organization named by slug. */
    private static final String INSTANCE_AUDIT = "/api/v1/audit-events";

    @Test
    void issuePagesAreReadInOrderWhateverTheFilters() {
        Scenario s = new Scenario(1);
        assertReadInOrder(s, ORG_ISSUES, "issue", "issue_org_newest");
        assertReadInOrder(s, ORG_ISSUES + "?state=open", "issue", "issue_org_open");
        assertReadInOrder(s, ORG_ISSUES + "?state=resolved&" + CURSOR, "issue", "issue_org_newest");
        assertReadInOrder(s, ORG_ISSUES + "?kind=drift", "issue", "issue_org_newest");
        assertReadInOrder(s, ORG_ISSUES + "?" + CURSOR, "issue", "issue_org_newest");
        assertReadInOrder(s, ENV_ISSUES, "issue", "issue_environment_newest");
        assertReadInOrder(s, ENV_ISSUES + "?state=open", "issue", "issue_environment_open");
        assertReadInOrder(s, ENV_ISSUES + "?state=resolved", "issue", "issue_environment_newest");
        assertReadInOrder(s, ENV_ISSUES + "?state=open&kind=drift&" + CURSOR, "issue", "issue_environment_open");
        assertReadInOrder(s, ENV_ISSUES + "?resource=thing/default/app.a", "issue", "issue_environment_newest");
    }

    @Test
    void auditPagesAreReadInOrderWhateverTheFilters() {
        Scenario s = new Scenario(1);
        assertReadInOrder(s, AUDIT, "audit_event", "audit_event_org_idx");
        assertReadInOrder(s, AUDIT + "?actor=admin", "audit_event", "audit_event_actor_idx");
        assertReadInOrder(s, AUDIT + "?action=deployment.create", "audit_event", "audit_event_action_idx");
        assertReadInOrder(s, AUDIT + "?actor=admin&" + CURSOR, "audit_event", "audit_event_actor_idx");
        assertReadInOrder(s, AUDIT + "?target=/api/v1/orgs", "audit_event", "audit_event_org_idx");
        assertReadInOrder(
                s, AUDIT + "?from=2026-01-01T00:00:00Z&to=2026-12-01T00:00:00Z", "audit_event", "audit_event_org_idx");
        assertReadInOrder(s, AUDIT + "?" + CURSOR, "audit_event", "audit_event_org_idx");
    }

    @Test
    void instanceAuditPagesAreReadInOrderWhateverTheFilters() {
        Scenario s = new Scenario(1);
        String inTimeOrder = "audit_event_instance_idx";
        assertReadInOrder(s, INSTANCE_AUDIT, "audit_event", inTimeOrder);
        assertReadInOrder(s, INSTANCE_AUDIT + "?" + CURSOR, "audit_event", inTimeOrder);
        // a filter's own index, or the instance-level events in time order with the filter applied to each: both read
        // the page in order and stop at its limit, and which one a plan takes depends on the test's statistics (how
        // many instance-level events name each organization, actor and action), as the organizations' lists do not
        assertReadInOrder(
                s, INSTANCE_AUDIT + "?org=acme", "audit_event", "audit_event_instance_org_idx|" + inTimeOrder);
        assertReadInOrder(
                s,
                INSTANCE_AUDIT + "?org=acme&" + CURSOR,
                "audit_event",
                "audit_event_instance_org_idx|" + inTimeOrder);
        assertReadInOrder(
                s, INSTANCE_AUDIT + "?actor=admin", "audit_event", "audit_event_instance_actor_idx|" + inTimeOrder);
        assertReadInOrder(
                s,
                INSTANCE_AUDIT + "?action=createOrganization",
                "audit_event",
                "audit_event_instance_action_idx|" + inTimeOrder);
    }

    @Test
    void deploymentStateVersionAndDeliveryPagesAreReadInOrder() {
        Scenario s = new Scenario(1);
        String webhook = s.webhook();
        String deployments = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments";
        assertReadInOrder(s, deployments, "deployment", "deployment_environment_idx");
        assertReadInOrder(s, deployments + "?" + CURSOR, "deployment", "deployment_environment_idx");
        String versions = "/api/v1/orgs/{org}/projects/shop/envs/prod/state/thing/default/app.a/versions";
        assertReadInOrder(s, versions, "state_version", "state_version_newest");
        assertReadInOrder(s, versions + "?" + CURSOR, "state_version", "state_version_newest");
        String deliveries = "/api/v1/orgs/{org}/webhooks/" + webhook + "/deliveries";
        assertReadInOrder(s, deliveries, "webhook_delivery", "webhook_delivery_newest");
        assertReadInOrder(s, deliveries + "?" + CURSOR, "webhook_delivery", "webhook_delivery_newest");
    }

    /**
     * The page of {@code url} is read in order through {@code index} of {@code table} (or one of several, separated
     * by {@code |}), and nothing is sorted.
     */
    private static void assertReadInOrder(Scenario s, String url, String table, String index) {
        List<String> sent =
                SentStatements.during(() -> (url.contains("{org}") ? admin().get(url, s.org) : admin().get(url))
                        .then()
                        .statusCode(200));
        List<String> pages = sent.stream()
                // a page newest first; the application's background work may read the table meanwhile
                .filter(sql -> sql.matches("(?s).*\\bfrom " + table + "\\b.*\\border by\\b.* desc\\b.*"))
                .toList();
        assertThat(pages).as("the statement that read the page of %s", url).hasSize(1);
        List<String> plan = QueryPlans.genericPlanOf(pages.get(0));
        assertThat(plan)
                .as("the plan of %s: %s", url, pages.get(0))
                .noneMatch(node -> node.contains("Sort"))
                .noneMatch(node -> node.startsWith("Seq Scan"))
                .anyMatch(node -> Arrays.stream(index.split("\\|"))
                                .anyMatch(one -> (node + " ").contains(" on " + table + " using " + one + " "))
                        // a later page starts where the index holds the cursor, not after reading every newer row
                        && (!url.contains("page_token=") || node.contains("ROW(")));
    }
}
