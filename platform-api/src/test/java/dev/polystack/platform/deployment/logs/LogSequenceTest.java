package dev.polystack.platform.deployment.logs;

import dev.polystack.platform.deployment.jobs.JobService;
import dev.polystack.platform.runner.RunnerCaller;
import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/** A follower of a deployment's logs sees every line once, in order, even when batches commit out of order. */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class LogSequenceTest {

    @Inject
    JobService jobService;

    @Inject
    LogService logService;

    @Inject
    EntityManager entityManager;

    @Test
    void aBatchThatCommitsLateIsNeitherMissedNorShownTwice() throws Exception {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of()));
        String deployment = s.deploy();
        Map<String, Map<String, Object>> jobs = s.claimAll();
        UUID deploymentId = UUID.fromString(deployment);
        RunnerCaller caller = QuarkusTransaction.requiringNew().call(() -> {
            Object[] ids = (Object[]) entityManager
                    .createNativeQuery(
                            "select r.org_id, r.id from runner r join organization o on o.id = r.org_id where o.slug = ?1 and r.slug = 'r1'")
                    .setParameter(1, s.org)
                    .getSingleResult();
            return new RunnerCaller((UUID) ids[0], s.org, (UUID) ids[1], "r1", 2);
        });

        // the batch of a is stored in a transaction that commits late
        CountDownLatch stored = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        CompletableFuture<Void> late = CompletableFuture.runAsync(() -> QuarkusTransaction.requiringNew()
                .run(() -> {
                    jobService.appendLogs(
                            caller,
                            UUID.fromString(jobs.get("app.a").get("job_id").toString()),
                            new LogBatch(0, List.of(new LogBatch.Line(Instant.now(), "info", null, "line of a"))));
                    stored.countDown();
                    await(commit);
                }));
        assertThat(stored.await(10, TimeUnit.SECONDS)).isTrue();
        // meanwhile the batch of b is sent and (as far as it can) committed
        CompletableFuture<Void> early =
                CompletableFuture.runAsync(() -> s.runner.log(jobs.get("app.b").get("job_id"), 0, "line of b"));
        Thread.sleep(1000);

        // a follower reads, then reads on from where it was
        List<String> seen = new ArrayList<>();
        long position = read(deploymentId, 0, seen);
        commit.countDown();
        late.get(10, TimeUnit.SECONDS);
        early.get(10, TimeUnit.SECONDS);
        read(deploymentId, position, seen);
        assertThat(seen).containsExactly("line of a", "line of b");
    }

    @Test
    void aDeploymentsLogsArePagedThroughWithTheNextPageTokenEveryLineOnceInOrder() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String deployment = s.deploy();
        Map<String, Object> job = s.runner.claim("20s");
        List<String> sent = new ArrayList<>();
        for (int batch = 0; batch < 25; batch++) {
            sent.add("line " + batch);
            s.runner.log(job.get("job_id"), batch, "line " + batch);
        }
        List<String> read = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            var request = Api.admin().queryParam("limit", 4);
            if (token != null) {
                request.queryParam("page_token", token);
            }
            var page =
                    request.get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs", s.org, deployment);
            page.then().statusCode(200);
            read.addAll(page.jsonPath().getList("items.message", String.class));
            token = page.jsonPath().getString("next_page_token");
            pages++;
        } while (token != null && pages < 20);
        assertThat(read).containsExactlyElementsOf(sent);
        assertThat(pages).isEqualTo(7);
    }

    private long read(UUID deploymentId, long after, List<String> seen) {
        long position = after;
        for (LogService.Batch batch : logService.after(deploymentId, null, after, 100)) {
            batch.lines().forEach(line -> seen.add(line.message()));
            position = batch.sequence();
        }
        return position;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
