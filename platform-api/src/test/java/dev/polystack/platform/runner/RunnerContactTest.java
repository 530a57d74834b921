package dev.polystack.platform.runner;

import dev.polystack.platform.deployment.jobs.JobService;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.UUID;

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
    EntityManager entityManager;

    @Inject
    JobService jobService;

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

    /** A claim that takes a job writes the contact in the statement that marks the job. */
    @Test
    void aClaimThatTakesAJobWritesTheContact() {
        Scenario s = new Scenario(1);
        s.manifest(Scenario.graph("a", List.of()));
        s.deploy();
        UUID id = runnerId(s.org, "r1");
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery("update runner set last_seen_at = null where id = ?1")
                        .setParameter(1, id)
                        .executeUpdate());
        // the claim alone: a runner's long-poll writes the contact with its first look, before it claims
        JobService.Claim claim = jobService.tryClaim(
                new RunnerCaller(orgId(s.org), s.org, id, "r1", 1), URI.create("http://localhost/"));
        assertThat(claim.job()).as("the job").isPresent();
        assertThat(QuarkusTransaction.requiringNew()
                        .call(() -> entityManager
                                .createNativeQuery("select last_seen_at from runner where id = ?1")
                                .setParameter(1, id)
                                .getSingleResult()))
                .as("the contact, written by the claim")
                .isNotNull();
    }

    private UUID orgId(String org) {
        return QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select id from organization where slug = ?1")
                .setParameter(1, org)
                .getSingleResult());
    }

    private UUID runnerId(String org, String slug) {
        return QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select r.id from runner r join organization o on o.id = r.org_id"
                        + " where o.slug = ?1 and r.slug = ?2")
                .setParameter(1, org)
                .setParameter(2, slug)
                .getSingleResult());
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
