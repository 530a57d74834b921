package dev.polystack.platform.deployment.jobs;

import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent's result is answered once it is stored, without waiting for the deployment's advance; the jobs the
 * advance queues wake the runner's waiting claim. The sweeper is slowed down here, so that nothing but that
 * advance can queue the dependent in time.
 */
@QuarkusTest
@TestProfile(ResultWithoutWaitTest.SlowSweeper.class)
@QuarkusTestResource(PostgresResource.class)
class ResultWithoutWaitTest {

    public static class SlowSweeper implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // the first sweep comes one interval after the start
            return Map.of("polystack.jobs.sweep-interval", "10m");
        }
    }

    @Test
    void aResultAnswersWithoutWaitingForTheAdvanceAndTheDependentsJobWakesTheNextClaim() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        s.deploy();
        Map<String, Object> a = s.runner.claim();
        assertThat(RunnerDriver.resourceOf(a)).isEqualTo("app.a");
        // as the agent reports it: without wait_for_advance
        s.runner
                .request()
                .body(Map.of(
                        "status", "succeeded", "outputs", Map.of("name", Map.of("value", "out-a", "sensitive", false))))
                .post("/api/runner/v1/jobs/{id}/result", a.get("job_id"))
                .then()
                .statusCode(204);
        Map<String, Object> b = s.runner.claim("20s");
        assertThat(b)
                .as("the dependent's job, queued by the advance after the result")
                .isNotNull();
        assertThat(RunnerDriver.resourceOf(b)).isEqualTo("app.b");
    }

    @Test
    void theEndOfAJobWakesAClaimWaitingForTheOrganizationsSlot() throws Exception {
        Scenario s = new Scenario(3);
        admin().body(Map.of("concurrent_jobs", 1))
                .put("/api/v1/orgs/{org}/quotas", s.org)
                .then()
                .statusCode(200);
        s.manifest(graph("a", List.of(), "b", List.of()));
        s.deploy();
        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first).hasSize(1);
        // the runner has free slots and the other job is queued, but the organization's one slot is taken: the
        // runner's next claim waits, and only the end of the running job can wake it (no sweep comes meanwhile)
        CompletableFuture<Map<String, Object>> waiting = CompletableFuture.supplyAsync(() -> s.runner.claim("14s"));
        Thread.sleep(1000);
        assertThat(waiting).isNotDone();
        s.succeed(first.values().iterator().next());
        Map<String, Object> second = waiting.get(30, TimeUnit.SECONDS);
        assertThat(second).as("the waiting claim got the queued job").isNotNull();
        assertThat(first.keySet()).doesNotContain(RunnerDriver.resourceOf(second));
    }

    @Test
    void aResultAskingForTheNextJobIsAnsweredWithTheRunnersNextQueuedJob() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of(), "b", List.of(), "c", List.of("a", "b")));
        s.deploy();
        Map<String, Object> first = s.runner.claim();
        Map<String, Object> output =
                Map.of("status", "succeeded", "outputs", Map.of("name", Map.of("value", "out", "sensitive", false)));
        // the runner has one slot: the other independent job is queued, and comes with the answer to the result
        var answer = s.runner
                .request()
                .queryParam("next", true)
                .body(output)
                .post("/api/runner/v1/jobs/{id}/result", first.get("job_id"));
        answer.then().statusCode(200);
        Map<String, Object> second = answer.jsonPath().getMap("");
        assertThat(List.of(RunnerDriver.resourceOf(first), RunnerDriver.resourceOf(second)))
                .containsExactlyInAnyOrder("app.a", "app.b");
        assertThat(second.get("state")).as("a claimed job's state credentials").isNotNull();
        // a repeat of the first result (an agent retrying) finds the runner's one slot taken: no job, the result
        // ignored
        s.runner
                .request()
                .queryParam("next", true)
                .body(output)
                .post("/api/runner/v1/jobs/{id}/result", first.get("job_id"))
                .then()
                .statusCode(204);
        // the second job is the runner's: heartbeats keep it
        s.runner.heartbeat(second.get("job_id")).then().statusCode(200);
        // c is queued by the advance after this result, which runs beside the answer: it comes with the answer or
        // with the next claim
        var last = s.runner
                .request()
                .queryParam("next", true)
                .body(output)
                .post("/api/runner/v1/jobs/{id}/result", second.get("job_id"));
        assertThat(last.statusCode()).isIn(200, 204);
        Map<String, Object> third = last.statusCode() == 200 ? last.jsonPath().getMap("") : s.runner.claim("20s");
        assertThat(third).isNotNull();
        assertThat(RunnerDriver.resourceOf(third)).isEqualTo("app.c");
    }
}
