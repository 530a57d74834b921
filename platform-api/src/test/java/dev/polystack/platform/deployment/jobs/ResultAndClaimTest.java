package dev.polystack.platform.deployment.jobs;

import dev.polystack.platform.runner.RunnerCaller;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.platform.testing.SentStatements;
import dev.polystack.platform.testing.StateCalls;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

/**
 * What a job's result and the claim of the next job send to the database, and what they keep when the result is
 * refused: the result's reads in one statement and its plain writes in one round trip, the claim's node and
 * environment in one statement, and a claim made beside a refused result that keeps nothing.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ResultAndClaimTest {

    @Inject
    EntityManager entityManager;

    @Inject
    JobService jobService;

    @Test
    void aSucceededResultFreesTheStateLockItsJobLeftAndRecordsItsResource() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        // the runner locked the state and reports its result without unlocking (an OpenTofu that was killed)
        StateCalls.lock(StateCalls.path(state.get("address")), StateCalls.basic(state), "left-behind")
                .then()
                .statusCode(200);
        assertThat(stateLocksOf(job)).isEqualTo(1);
        s.succeed(job);
        assertThat(stateLocksOf(job))
                .as("the result freed the job's state lock")
                .isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> s.status(id).equals("succeeded"));
        UUID environment = s.prodEnvironmentId();
        assertThat(QuarkusTransaction.requiringNew()
                        .call(() -> entityManager
                                .createNativeQuery("select res_id from active_resource where environment_id = ?1")
                                .setParameter(1, environment)
                                .getResultList()))
                .as("the resource the result recorded")
                .containsExactly("app.a");
    }

    private long stateLocksOf(Map<String, Object> job) {
        return QuarkusTransaction.requiringNew()
                .call(() -> ((Number) entityManager
                                .createNativeQuery("select count(*) from state_lock where job_id = ?1")
                                .setParameter(1, UUID.fromString(String.valueOf(job.get("job_id"))))
                                .getSingleResult())
                        .longValue());
    }

    @Test
    void aResultReadsWhatItNeedsInOneStatementAndEndsTheJobWithItsOtherWrites() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        List<String> sent = SentStatements.during(() -> s.runner
                .request()
                .body(Map.of(
                        "status", "succeeded", "outputs", Map.of("name", Map.of("value", "out", "sensitive", false))))
                .post("/api/runner/v1/jobs/{id}/result", job.get("job_id"))
                .then()
                .statusCode(204));
        // the locks this result took on jobs and nodes (its advance, which may start meanwhile, locks its deployment)
        List<String> locks = sent.stream()
                .map(SentStatements::oneLine)
                .filter(sql -> sql.contains(" for "))
                .filter(sql -> sql.contains(" from job ") || sql.contains(" from deployment_node "))
                .toList();
        assertThat(locks)
                .as("one statement locks the job and its node and reads the deployment and the type's schema: %s", sent)
                .singleElement(InstanceOfAssertFactories.STRING)
                .contains(
                        "join deployment_node n",
                        "join deployment d",
                        "output_schema::text from resource_type",
                        "for no key update of j, n");
        assertThat(sent)
                .as("the job's end is written with the result's other plain writes, not by the session's flush")
                .noneMatch(sql -> sql.startsWith("update job "));
        assertThat(QuarkusTransaction.requiringNew().call(() -> (Object[]) entityManager
                        .createNativeQuery("select status, finished_at from job where id = ?1")
                        .setParameter(1, UUID.fromString(String.valueOf(job.get("job_id"))))
                        .getSingleResult()))
                .as("the job's end, written with the result's plain writes")
                .satisfies(row -> {
                    assertThat(row[0]).isEqualTo("done");
                    assertThat(row[1]).isNotNull();
                });
        await().atMost(Duration.ofSeconds(10)).until(() -> s.status(id).equals("succeeded"));
    }

    @Test
    void aClaimLocksItsNodeAndReadsItsEnvironmentInOneStatement() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        s.deploy();
        List<String> sent =
                SentStatements.during(() -> assertThat(s.runner.claim()).isNotNull());
        List<String> nodeLocks = sent.stream()
                .map(SentStatements::oneLine)
                .filter(sql -> sql.contains(" for ") && sql.contains(" from deployment_node "))
                .toList();
        assertThat(nodeLocks)
                .as("one statement locks the node and reads its environment: %s", sent)
                .singleElement(InstanceOfAssertFactories.STRING)
                .contains("join environment e", "join env_type t", "for no key update of n");
    }

    @Test
    void aRefusedResultAskingForTheNextJobClaimsNone() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of(), "b", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> claimed = s.claimAll();
        assertThat(claimed).as("the runner's one slot").hasSize(1);
        Map<String, Object> job = claimed.values().iterator().next();
        String other = RunnerDriver.resourceOf(job).equals("app.a") ? "app.b" : "app.a";
        // the job's lease ran out before its result came, and the sweeper took the job from the runner: the slot is
        // free, but the result is refused, and so is the claim asked with it (the refusal would never deliver the job)
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update job set status = 'lost', lease_expires_at = now() - interval '1 second'"
                                        + " where id = ?1")
                        .setParameter(1, UUID.fromString(String.valueOf(job.get("job_id"))))
                        .executeUpdate());
        s.runner
                .request()
                .queryParam("next", true)
                .body(Map.of("status", "succeeded"))
                .post("/api/runner/v1/jobs/{id}/result", job.get("job_id"))
                .then()
                .statusCode(409)
                .body("detail", containsString("its result is refused"));
        // the claim beside the refused result may still be running when the answer comes: its job and node stay
        // queued for longer than it takes
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(5))
                .until(() -> s.nodeStatuses(id).get(other).equals("queued")
                        && jobStatusOf(id, other).equals("queued"));
    }

    /**
     * A claim made beside a result that was refused takes nothing and says so: it does not fail, and its job and node
     * stay queued.
     */
    @Test
    void aClaimBesideARefusedResultTakesNothingWithoutFailing() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        RunnerCaller runner = QuarkusTransaction.requiringNew().call(() -> {
            Object[] row = (Object[]) entityManager
                    .createNativeQuery("select o.id, r.id from runner r join organization o on o.id = r.org_id"
                            + " where o.slug = ?1 and r.slug = 'r1'")
                    .setParameter(1, s.org)
                    .getSingleResult();
            return new RunnerCaller((UUID) row[0], s.org, (UUID) row[1], "r1", 1);
        });
        JobService.Claim claim = jobService.tryClaimBeside(
                runner, URI.create("http://localhost/"), CompletableFuture.completedFuture(false));
        assertThat(claim.job())
                .as("the job of a claim whose result was refused")
                .isEmpty();
        assertThat(claim.failed()).isEmpty();
        assertThat(s.nodeStatuses(id).get("app.a")).isEqualTo("queued");
        assertThat(jobStatusOf(id, "app.a")).isEqualTo("queued");
    }

    @Test
    void anAdvanceAsksWhetherItsDeploymentIsDoneOfTheNodesNothingWaitsFor() {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> claimed = s.claimAll();
        assertThat(claimed).containsOnlyKeys("app.a", "app.b");
        // nothing depends on a: its advance has no dependent to look at and asks whether the deployment is done. b,
        // which nothing waits for either, still runs; the advance learns that from the two nodes nothing waits for,
        // without reading every node of the deployment
        List<String> sent = SentStatements.during(() -> s.succeed(claimed.get("app.a"))).stream()
                .map(SentStatements::oneLine)
                .toList();
        assertThat(sent)
                .as("the advance's look at the nodes nothing waits for: %s", sent)
                .anySatisfy(sql -> assertThat(sql)
                        .contains("from deployment_node where id = any(")
                        .contains("status in ('pending', 'queued', 'running')"));
        assertThat(s.status(id)).isEqualTo("running");
        // b's end leaves no node unfinished: the whole walk finds that, and ends the deployment
        s.succeed(claimed.get("app.b"));
        await().atMost(Duration.ofSeconds(10)).until(() -> s.status(id).equals("succeeded"));
    }

    /** The status of the job of resource {@code resource} (its id, as {@code app.a}) in a deployment. */
    private String jobStatusOf(String deployment, String resource) {
        return QuarkusTransaction.requiringNew().call(() -> (String) entityManager
                .createNativeQuery("select j.status from job j join deployment_node n on n.id = j.node_id"
                        + " where j.deployment_id = ?1 and n.res_id = ?2")
                .setParameter(1, UUID.fromString(deployment))
                .setParameter(2, resource)
                .getSingleResult());
    }
}
