package dev.polystack.platform.deployment.model;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The environment lock an advance takes without loading the environment: it holds off whatever else locks the
 * environment, as the entity's lock did, and never the rows that refer to the environment.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class EnvironmentLockTest {

    @Inject
    DeploymentRepository deployments;

    @Inject
    EntityManager entityManager;

    @Test
    void theAdvancesLockHoldsOffOtherLocksOfTheEnvironmentButNotRowsThatReferToIt() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(Map.of("a", List.of()));
        UUID deployment = UUID.fromString(s.deploy());
        UUID environment = QuarkusTransaction.requiringNew()
                .call(() -> deployments.findById(deployment).environmentId());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<Boolean> advance =
                    pool.submit(() -> QuarkusTransaction.requiringNew().call(() -> {
                        boolean unfinished = deployments.lockEnvironmentOfUnfinished(deployment);
                        locked.countDown();
                        release.await(20, TimeUnit.SECONDS);
                        return unfinished;
                    }));
            assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
            // what a foreign key's check takes on the environment when a row that refers to it is written
            assertThat(lockNow(environment, "for key share"))
                    .as("a row that refers to the environment can be written")
                    .isTrue();
            // what EnvironmentService.lock takes: another advance, a new deployment, a manifest
            assertThat(lockNow(environment, "for no key update"))
                    .as("another lock of the environment waits")
                    .isFalse();
            release.countDown();
            assertThat(advance.get(10, TimeUnit.SECONDS))
                    .as("the deployment has not ended")
                    .isTrue();
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
        // the sweeper advances this unfinished deployment every second, under the same lock: it may hold it at this
        // moment (or have waited for it, and taken it when the transaction above ended), so the lock is looked for a
        // few times; a lock that stayed with the pool's thread is never free
        await("the lock goes with its transaction")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> lockNow(environment, "for no key update"));
    }

    @Test
    void aDeploymentThatEndedOrDoesNotExistHasNothingToAdvance() {
        Scenario s = new Scenario(1);
        s.manifest(Map.of("a", List.of()));
        String id = s.deploy();
        s.succeed(s.runner.claim());
        await().atMost(Duration.ofSeconds(20)).until(() -> s.status(id).equals("succeeded"));
        assertThat(QuarkusTransaction.requiringNew()
                        .call(() -> deployments.lockEnvironmentOfUnfinished(UUID.fromString(id))))
                .isFalse();
        assertThat(QuarkusTransaction.requiringNew()
                        .call(() -> deployments.lockEnvironmentOfUnfinished(UUID.randomUUID())))
                .isFalse();
    }

    /** Whether another transaction gets the environment's row lock of this strength now, without waiting. */
    private boolean lockNow(UUID environment, String strength) {
        return QuarkusTransaction.requiringNew()
                .call(() -> !entityManager
                        .createNativeQuery("select id from environment where id = ?1 " + strength + " skip locked")
                        .setParameter(1, environment)
                        .getResultList()
                        .isEmpty());
    }
}
