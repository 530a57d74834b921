package dev.polystack.platform.common.sql;

import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.JobRepository;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.query.spi.QueryInterpretationCache;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hibernate keeps the plan of each native query it ran, in a cache of bounded size, and finds it again for the same
 * statement. A native query whose result is a single column of a basic type (a UUID, a boolean) named as the query's
 * result class got a result builder without equality: no plan of it was found again, each execution added one more to
 * the cache, every lookup of that statement compared it with all of them, and the plans of other queries were pushed
 * out. The statements the engine and its sweeps send over and over are run again here; the cache must not grow with
 * them.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class NativeQueryPlansTest {

    private static final int RUNS = 30;

    @Inject
    EntityManager entityManager;

    @Inject
    NodeRepository nodes;

    @Inject
    JobRepository jobs;

    @Inject
    DeploymentRepository deployments;

    @Test
    void theEnginesSingleColumnQueriesFindTheirPlansAgain() {
        QueryInterpretationCache cache = entityManager
                .getEntityManagerFactory()
                .unwrap(SessionFactoryImplementor.class)
                .getQueryEngine()
                .getInterpretationCache();
        // from an empty cache: a full one would not show growth
        cache.close();
        List<UUID> ids = List.of(UUID.randomUUID(), UUID.randomUUID());
        Runnable each = () -> QuarkusTransaction.requiringNew().run(() -> {
            nodes.anyUnfinishedAmong(ids);
            jobs.expired(Instant.now(), 10);
            jobs.cancelQueued(UUID.randomUUID(), Instant.now());
            deployments.unfinished(10);
            deployments.awaitingApproval(UUID.randomUUID(), 10);
        });
        each.run();
        int before = cache.getNumberOfCachedQueryPlans();
        for (int i = 0; i < RUNS; i++) {
            each.run();
        }
        // the application's own background work may add a few plans of its own meanwhile
        assertThat(cache.getNumberOfCachedQueryPlans() - before)
                .as("query plans added by %d more runs of the same statements", RUNS)
                .isLessThan(10);
    }
}
