package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.micrometer.core.instrument.MeterRegistry;
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

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Scenario.graph;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

/** An instance administrator sees why deployments do not move, instead of a warning every few seconds in a log. */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class EngineDiagnosticsTest {

    private static final String DIAGNOSTICS = "/api/v1/admin/engine";

    @Inject
    EntityManager entityManager;

    @Inject
    MeterRegistry meters;

    @Test
    void aDeploymentThatCannotAdvanceIsMarkedStalledWithTheReasonAndMovesOnOnceRepaired() {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String id = s.deploy();
        Map<String, Object> a = s.claimAll().get("app.a");
        double failuresBefore =
                meters.counter("polystack.engine.advance.failures").count();
        // b's stored runner goes (as a bug or a bad migration would): queueing its job fails inside the advance
        String runner = QuarkusTransaction.requiringNew()
                .call(() -> entityManager
                        .createNativeQuery(
                                "select cast(runner_id as text) from deployment_node where deployment_id = ?1 and res_id = 'app.b'")
                        .setParameter(1, UUID.fromString(id))
                        .getSingleResult()
                        .toString());
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update deployment_node set runner_id = null where deployment_id = ?1 and res_id = 'app.b'")
                        .setParameter(1, UUID.fromString(id))
                        .executeUpdate());
        s.succeed(a);

        assertThat(s.deployment(id).get("stalled_reason"))
                .asString()
                .startsWith("cannot advance: an unexpected error (log reference ");
        assertThat(meters.counter("polystack.engine.advance.failures").count()).isGreaterThan(failuresBefore);
        var diagnostics =
                admin().get(DIAGNOSTICS).then().statusCode(200).extract().jsonPath();
        assertThat(diagnostics.getString("stalled.find { it.id == '" + id + "' }.stalled_reason"))
                .contains("log reference");
        assertThat(diagnostics.getString("stalled.find { it.id == '" + id + "' }.org"))
                .isEqualTo(s.org);
        assertThat(diagnostics.getList("recent_failures.deployment_id", String.class))
                .contains(id);

        // repaired: the sweeper advances it, and the mark goes
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update deployment_node set runner_id = cast(?2 as uuid) where deployment_id = ?1 and res_id = 'app.b'")
                        .setParameter(1, UUID.fromString(id))
                        .setParameter(2, runner)
                        .executeUpdate());
        await().atMost(Duration.ofSeconds(15)).until(() -> s.deployment(id).get("stalled_reason") == null);
        Map<String, Map<String, Object>> next = s.claimAll();
        assertThat(next.keySet()).containsExactly("app.b");
    }

    @Test
    void queuesAndJobsNoRunnerTookAreListedWithTheirRunnerAndRule() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String running = s.deploy();
        s.create(Map.of("mode", "deploy", "force", true)).then().statusCode(201);
        var diagnostics = admin().queryParam("waiting_after", "0s")
                .get(DIAGNOSTICS)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(diagnostics.getLong("queues.find { it.org == '" + s.org + "' }.queued"))
                .isEqualTo(1L);
        String job = "waiting_jobs.find { it.deployment_id == '" + running + "' }";
        assertThat(diagnostics.getString(job + ".resource")).isEqualTo("thing/default/app.a");
        assertThat(diagnostics.getString(job + ".runner")).isEqualTo("r1");
        assertThat(diagnostics.getString(job + ".runner_status")).isEqualTo("offline");
        assertThat(diagnostics.getString(job + ".runner_rule_id")).isNotBlank();
        // the gauges are counted at each sweep: the job no runner took is among the queued ones
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(meters.get("polystack.jobs")
                                .tag("status", "queued")
                                .gauge()
                                .value())
                        .isGreaterThanOrEqualTo(1));
        problem(as(tokenFor(s.org, "owner")).get(DIAGNOSTICS), 403, "forbidden");
        problem(admin().queryParam("waiting_after", "soon").get(DIAGNOSTICS), 400, "validation");
    }

    @Test
    void theEnginesMetricsArePublished() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        given().get("/q/metrics")
                .then()
                .statusCode(200)
                .body(containsString("polystack_engine_advance_duration_seconds_bucket"))
                .body(containsString("polystack_jobs_pickup_latency_seconds_bucket"))
                .body(containsString("polystack_deployments_finished_total{mode=\"deploy\",status=\"succeeded\"}"))
                .body(containsString("polystack_deployments{status=\"running\"}"))
                .body(containsString("polystack_jobs_lease_expiries_total"))
                .body(containsString("polystack_sweeper_errors_total"));
    }
}
