package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.QueryPlans;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every sweep (5 s) counts the unfinished deployments and jobs for the engine's gauges: it must read only the indexes
 * of unfinished rows, whose size is the work in flight, and never every job or deployment ever recorded.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class SweeperCountsQueryPlanTest {

    @Inject
    EntityManager entityManager;

    @Test
    void theGaugesCountOnlyTheUnfinishedJobsAndDeployments() {
        for (String table : List.of("job", "deployment")) {
            List<String> reads = QueryPlans.readsOf(entityManager, table, Sweeper.COUNTS);
            assertThat(reads).as("what the counts read of %s", table).isNotEmpty();
            assertThat(QueryPlans.partialIndexesOf(entityManager, table))
                    .as("the indexes of some rows of %s", table)
                    .containsAll(reads);
        }
    }
}
