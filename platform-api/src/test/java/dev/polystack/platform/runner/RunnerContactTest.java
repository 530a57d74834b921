package dev.polystack.platform.runner;

import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.createOrg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/** A runner's contact: written by every call (a look that finds no job included), at once. */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class RunnerContactTest {

    @Inject
    RunnerService runners;

    @Inject
    QuotaService quotas;

    @Inject
    EntityManager entityManager;

    @Test
    void aLookThatFindsNoJobShowsTheRunnerOnlineAtOnce() {
        String org = createOrg();
        RunnerDriver runner = RunnerDriver.register(org, "idle", 1);
        admin().get("/api/v1/orgs/{org}/runners/idle", org)
                .then()
                .statusCode(200)
                .body("status", equalTo("offline"));
        assertThat(runner.claim("0s")).isNull();
        admin().get("/api/v1/orgs/{org}/runners/idle", org)
                .then()
                .statusCode(200)
                .body("status", equalTo("idle"))
                .body("last_seen_at", notNullValue());
    }

    @Test
    void onlyAnIdleLooksContactIsCommittedWithoutWaitingForTheDisk() {
        String org = createOrg();
        RunnerDriver.register(org, "lazy", 1);
        UUID id = runnerId(org, "lazy");
        // the contact is due (never written), so each touch below writes it
        assertThat(afterTouch(id, true)).as("in an idle look's transaction").isEqualTo("off");
        assertThat(setting()).as("in the next transaction").isEqualTo("on");
        assertThat(afterTouch(id, false))
                .as("in a claim's or heartbeat's transaction")
                .isEqualTo("on");
    }

    @Test
    void aClaimWritesTheContactTakesItsOrganizationsLockAndCountsWhatTheLocksLastHolderCommitted() throws Exception {
        String org = createOrg();
        RunnerDriver.register(org, "claiming", 1);
        RunnerDriver.register(org, "holding", 1);
        UUID claiming = runnerId(org, "claiming");
        UUID holding = runnerId(org, "holding");
        UUID orgId = QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select id from organization where slug = ?1")
                .setParameter(1, org)
                .getSingleResult());
        // another claim of the organization holds its lock, and commits a change while this one waits for it
        CountDownLatch held = new CountDownLatch(1);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<?> holder =
                    other.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
                        quotas.lockedLimit(orgId, Quota.CONCURRENT_JOBS);
                        entityManager
                                .createNativeQuery("update runner set max_concurrent_jobs = 7 where id = ?1")
                                .setParameter(1, holding)
                                .executeUpdate();
                        held.countDown();
                        sleep(500);
                    }));
            assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
            QuarkusTransaction.requiringNew().run(() -> {
                entityManager
                        .createNativeQuery("update runner set last_seen_at = null where id = ?1")
                        .setParameter(1, claiming)
                        .executeUpdate();
                int changed = quotas.executeLockedAfter(
                        runners.contact(claiming),
                        orgId,
                        Quota.CONCURRENT_JOBS,
                        new Statement(
                                "update runner set description = 'counted' where id = ?"
                                        + " and (select max_concurrent_jobs from runner where id = ?) = 7",
                                claiming,
                                holding));
                assertThat(changed)
                        .as(
                                "the last statement's snapshot was taken once the lock was held: it sees the holder's commit")
                        .isEqualTo(1);
                assertThat(entityManager
                                .createNativeQuery("select last_seen_at from runner where id = ?1")
                                .setParameter(1, claiming)
                                .getSingleResult())
                        .as("the contact was written")
                        .isNotNull();
                assertThat(((Number) entityManager
                                        .createNativeQuery("select count(*) from pg_locks where locktype = 'advisory'"
                                                + " and pid = pg_backend_pid() and granted")
                                        .getSingleResult())
                                .longValue())
                        .as("the organization's lock is held until the transaction ends")
                        .isEqualTo(1);
            });
            holder.get(30, TimeUnit.SECONDS);
        } finally {
            other.shutdownNow();
        }
    }

    private UUID runnerId(String org, String slug) {
        return QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select r.id from runner r join organization o on o.id = r.org_id"
                        + " where o.slug = ?1 and r.slug = ?2")
                .setParameter(1, org)
                .setParameter(2, slug)
                .getSingleResult());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** synchronous_commit in a transaction after the runner's contact was made due and written. */
    private String afterTouch(UUID id, boolean idle) {
        return QuarkusTransaction.requiringNew().call(() -> {
            entityManager
                    .createNativeQuery("update runner set last_seen_at = null where id = ?1")
                    .setParameter(1, id)
                    .executeUpdate();
            if (idle) {
                runners.touchIdle(id);
            } else {
                runners.touch(id);
            }
            Object seen = entityManager
                    .createNativeQuery("select last_seen_at from runner where id = ?1")
                    .setParameter(1, id)
                    .getSingleResult();
            assertThat(seen).as("the contact was written").isNotNull();
            return (String)
                    entityManager.createNativeQuery("show synchronous_commit").getSingleResult();
        });
    }

    private String setting() {
        return QuarkusTransaction.requiringNew().call(() -> (String)
                entityManager.createNativeQuery("show synchronous_commit").getSingleResult());
    }
}
