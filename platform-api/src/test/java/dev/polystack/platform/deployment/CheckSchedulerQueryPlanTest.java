package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.QueryPlans;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check scheduler's look counts each due environment's organization's running checks; that count must be able to
 * read only the running checks (the partial index of V33) rather than every deployment of the organization. A test of
 * the plan, not of speed: it fails when the index is missing or when the query no longer implies its predicate (a
 * literal changed on one side only), which would silently bring the scan back.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class CheckSchedulerQueryPlanTest {

    @Inject
    EntityManager entityManager;

    @Test
    void theCountOfAnOrganizationsRunningChecksReadsTheIndexOfRunningChecks() {
        assertThat(dueEnvironmentsReads())
                .as("what the due environments' look reads of the deployments")
                .contains("deployment_running_checks_idx");
    }

    /**
     * A scheduled check adds a deployment to its environment at every interval, so an environment's history grows
     * without end: whether it had a deployment since the interval began is one probe of the index of each
     * environment's last activity, in the look and again under the environment's lock, not a read of its history.
     */
    @Test
    void whetherAnEnvironmentWasActiveWithinItsIntervalIsOneProbe() {
        assertThat(dueEnvironmentsReads())
                .as("what the due environments' look reads of the deployments")
                .contains("deployment_last_activity_idx")
                .doesNotContain("deployment_environment_idx");
        assertThat(QueryPlans.readsOf(
                        entityManager, "deployment", DeploymentService.ACTIVE_SINCE, UUID.randomUUID(), Instant.now()))
                .as("what a scheduled check's look under the lock reads of the deployments")
                .containsExactly("deployment_last_activity_idx");
    }

    /** What the due environments' look reads of the deployments. */
    private List<String> dueEnvironmentsReads() {
        return QueryPlans.readsOf(
                entityManager,
                "deployment",
                CheckScheduler.DUE_ENVIRONMENTS,
                Instant.now(),
                100,
                4,
                DeploymentService.SCHEDULED_CHECK);
    }
}
