package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

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
        List<?> plan = QuarkusTransaction.requiringNew().call(() -> {
            // the tables of a test hold a few rows, where a scan is cheapest: ask the planner for what it could use
            entityManager.createNativeQuery("set local enable_seqscan = off").executeUpdate();
            return entityManager
                    .createNativeQuery("explain " + CheckScheduler.DUE_ENVIRONMENTS)
                    .setParameter(1, Instant.now())
                    .setParameter(2, 100)
                    .setParameter(3, 4)
                    .setParameter(4, DeploymentService.SCHEDULED_CHECK)
                    .getResultList();
        });
        String text = String.join("\n", plan.stream().map(String::valueOf).toList());
        assertThat(text).as("the plan of the due environments' look").contains("deployment_running_checks_idx");
    }
}
