package dev.polystack.platform.deployment.logs;

import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;

/**
 * The logs of a deployment are kept for the retention (90 days by default) after it ended, then removed by a
 * cleanup that several replicas may run at once; reading removed logs says so (410), it does not look empty.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class LogRetentionTest {

    @Inject
    LogRetention retention;

    @Inject
    EntityManager entityManager;

    @Test
    void logsOfADeploymentThatEndedLongerAgoThanTheRetentionAreRemovedAndReadingThemSaysWhy() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String old = deployWithLogs(s, "an old line");
        String recent = deployWithLogs(s, "a recent line");
        endedAgo(old, Duration.ofDays(91));

        int removed = retention.removeExpired(Instant.now(), 50);

        assertThat(removed)
                .as("deployments whose logs were removed (other tests' deployments are recent)")
                .isEqualTo(1);
        problem(logs(s, old), 410, "gone")
                .body(
                        "detail",
                        allOf(
                                containsString(old),
                                containsString("90 days"),
                                containsString("POLYSTACK_DEPLOYMENT_LOGS_RETENTION")));
        assertThat(storedBatches(old)).isZero();
        logs(s, recent).then().statusCode(200).body("items.message", org.hamcrest.Matchers.hasItem("a recent line"));
        // the deployment itself stays, and so does its graph
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", s.org, old)
                .then()
                .statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("succeeded"));
        // a second cleanup finds nothing more to do
        assertThat(retention.removeExpired(Instant.now(), 50)).isZero();
    }

    @Test
    void cleanupsRunningAtOnceOnSeveralReplicasRemoveEachDeploymentsLogsOnce() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        List<String> deployments = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String id = deployWithLogs(s, "line " + i);
            endedAgo(id, Duration.ofDays(200));
            deployments.add(id);
        }
        // three cleanups at once, one deployment per transaction, as if on three replicas
        List<CompletableFuture<Integer>> cleanups = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            cleanups.add(CompletableFuture.supplyAsync(() -> retention.removeExpired(Instant.now(), 1)));
        }
        int total = 0;
        for (CompletableFuture<Integer> cleanup : cleanups) {
            total += cleanup.get();
        }
        assertThat(total).isEqualTo(6);
        for (String id : deployments) {
            assertThat(storedBatches(id)).isZero();
            problem(logs(s, id), 410, "gone");
        }
    }

    private static String deployWithLogs(Scenario s, String line) {
        // forced: the resource runs again in every deployment, so that each has a job and logs
        String id = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Object> job = s.runner.claim("20s");
        assertThat(job).as("the job of deployment %s", id).isNotNull();
        s.runner.log(job.get("job_id"), 0, line);
        s.succeed(job);
        assertThat(s.status(id)).isEqualTo("succeeded");
        return id;
    }

    private static io.restassured.response.Response logs(Scenario s, String deployment) {
        return admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs", s.org, deployment);
    }

    private void endedAgo(String deployment, Duration ago) {
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery("update deployment set finished_at = ?1 where id = ?2")
                        .setParameter(1, Instant.now().minus(ago))
                        .setParameter(2, UUID.fromString(deployment))
                        .executeUpdate());
    }

    private long storedBatches(String deployment) {
        return QuarkusTransaction.requiringNew()
                .call(() -> ((Number) entityManager
                                .createNativeQuery("select count(*) from job_log where deployment_id = ?1")
                                .setParameter(1, UUID.fromString(deployment))
                                .getSingleResult())
                        .longValue());
    }
}
