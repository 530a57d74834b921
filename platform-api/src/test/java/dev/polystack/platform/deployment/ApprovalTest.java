package dev.polystack.platform.deployment;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Manual gates: an environment type that requires approval makes each deployment plan first, wait in
 * awaiting_approval with its plan, and apply only after enough approvals of that plan by someone else.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ApprovalTest {

    private static final String ENV = "/api/v1/orgs/{org}/projects/shop/envs/prod";

    @Inject
    EntityManager entityManager;

    /** An organization whose production environments need {@code policy}'s approvals, with a and b (b refers to a). */
    private static Scenario gated(Map<String, Object> policy) {
        Scenario s = new Scenario(4);
        Map<String, Object> approval = new HashMap<>(policy);
        approval.put("deployments", true);
        admin().body(Map.of("approval", approval))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200)
                .body("approval.required", equalTo(approval.getOrDefault("required", 1)))
                .body("approval.allow_self_approval", equalTo(false));
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        return s;
    }

    private static String deployAs(Scenario s, String token) {
        return as(token)
                .body(Map.of("mode", "deploy"))
                .post(ENV + "/deployments", s.org)
                .then()
                .statusCode(201)
                .body("approval.state", equalTo("planning"))
                .extract()
                .path("id");
    }

    /** Claims the plan jobs that are ready and reports each as planning one addition. */
    private static Map<String, Map<String, Object>> planAll(Scenario s) {
        Map<String, Map<String, Object>> jobs = s.claimAll();
        jobs.values().forEach(job -> {
            assertThat(job.get("operation"))
                    .as("a gated deployment's first part only plans")
                    .isEqualTo("plan");
            s.runner
                    .result(
                            job.get("job_id"),
                            Map.of("status", "succeeded", "plan_summary", Map.of("add", 1, "change", 0, "destroy", 0)))
                    .then()
                    .statusCode(204);
        });
        return jobs;
    }

    /** A first deployment of a and b, approved by {@code approver} and applied. */
    private static void deployedWithApproval(Scenario s, String approver) {
        String first = s.deploy();
        planAll(s);
        decide(s, approver, first, Map.of("decision", "approve")).then().statusCode(201);
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(first)).isEqualTo("succeeded");
    }

    private static io.restassured.response.Response decide(
            Scenario s, String token, String deployment, Map<String, Object> body) {
        return as(token).body(body).post(ENV + "/deployments/{id}/approvals", s.org, deployment);
    }

    private static List<Map<String, Object>> pending(Scenario s, String token) {
        return as(token)
                .get("/api/v1/orgs/{org}/approvals", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("");
    }

    @Test
    void aGatedDeploymentPlansWaitsWithItsPlanAndAppliesOnlyAfterAnotherMembersApproval() {
        Scenario s = gated(Map.of());
        String author = tokenFor(s.org, "platform-engineer");
        String approver = tokenFor(s.org, "platform-engineer");
        String viewer = tokenFor(s.org, "viewer");
        String deployment = deployAs(s, author);

        assertThat(planAll(s))
                .as("b's inputs are known only after a applies: it is not planned by a job")
                .containsOnlyKeys("app.a");
        Map<String, Object> waiting = s.deployment(deployment);
        assertThat(waiting.get("status")).isEqualTo("awaiting_approval");
        assertThat(s.nodeStatuses(deployment)).containsEntry("app.a", "planned").containsEntry("app.b", "planned");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> plannedNodes = (List<Map<String, Object>>) waiting.get("nodes");
        assertThat(plannedNodes)
                .filteredOn(n -> n.get("id").equals("app.b"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.get("action")).isEqualTo("create");
                    assertThat(((Map<?, ?>) n.get("plan_summary")).get("known_after_apply"))
                            .isEqualTo(true);
                    assertThat((String) ((Map<?, ?>) n.get("plan_summary")).get("reason"))
                            .contains("thing/default/app.a");
                });
        @SuppressWarnings("unchecked")
        Map<String, Object> gate = (Map<String, Object>) waiting.get("approval");
        assertThat(gate.get("state")).isEqualTo("awaiting");
        assertThat((String) gate.get("fingerprint")).startsWith("sha256:");
        assertThat(gate.get("approvers")).isEqualTo(List.of("platform-engineer", "owner"));
        assertThat(waiting.get("changes")).isEqualTo(Map.of("add", 1, "change", 0, "destroy", 0));
        assertThat(s.claimAll()).as("nothing applies while it waits").isEmpty();

        assertThat(pending(s, author))
                .as("the author's own deployment does not wait for the author")
                .isEmpty();
        assertThat(pending(s, viewer)).as("a viewer may not approve here").isEmpty();
        assertThat(pending(s, approver)).singleElement().satisfies(p -> {
            assertThat(p.get("deployment_id")).isEqualTo(deployment);
            assertThat(p.get("required")).isEqualTo(1);
            assertThat(p.get("fingerprint")).isEqualTo(gate.get("fingerprint"));
        });
        problem(decide(s, author, deployment, Map.of("decision", "approve")), 403, "forbidden")
                .body("detail", containsString("you started this deployment"));
        problem(decide(s, viewer, deployment, Map.of("decision", "approve")), 403, "forbidden")
                .body("detail", containsString("platform-engineer or owner"));
        problem(decide(s, approver, deployment, Map.of("decision", "maybe")), 400, "validation");
        problem(
                        decide(s, approver, deployment, Map.of("decision", "approve", "fingerprint", "sha256:0000")),
                        409,
                        "conflict")
                .body("detail", containsString("review that plan"));
        assertThat(s.status(deployment)).isEqualTo("awaiting_approval");

        decide(
                        s,
                        approver,
                        deployment,
                        Map.of("decision", "approve", "comment", "looks right", "fingerprint", gate.get("fingerprint")))
                .then()
                .statusCode(201)
                .body("decision", equalTo("approve"))
                .body("comment", equalTo("looks right"));
        assertThat(s.status(deployment)).isEqualTo("running");
        assertThat(pending(s, approver)).isEmpty();
        problem(decide(s, approver, deployment, Map.of("decision", "approve")), 409, "conflict");

        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first).containsOnlyKeys("app.a");
        assertThat(first.get("app.a").get("operation")).isEqualTo("apply");
        first.values().forEach(s::succeed);
        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second).containsOnlyKeys("app.b");
        assertThat(second.get("app.b").get("operation")).isEqualTo("apply");
        second.values().forEach(s::succeed);
        assertThat(s.status(deployment)).isEqualTo("succeeded");
        admin().get(ENV + "/deployments/{id}", s.org, deployment)
                .then()
                .body("approval.state", equalTo("approved"))
                .body("approval.decisions[0].comment", equalTo("looks right"))
                .body("approval.decisions.size()", equalTo(1))
                .body("approval.decisions[0].role", equalTo("platform-engineer"));
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("nodes.id"))
                .containsExactlyInAnyOrder("app.a", "app.b");
        assertThat(admin().get("/api/v1/orgs/{org}/audit-events", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items.target", String.class))
                .anyMatch(t -> t.contains("/deployments/" + deployment + "/approvals/"));
    }

    @Test
    void twoApprovalsAreNeededWhenThePolicySaysSoAndARejectionEndsItWithoutApplying() {
        Scenario s = gated(Map.of("required", 2));
        String first = tokenFor(s.org, "platform-engineer");
        String second = tokenFor(s.org, "owner");
        String deployment = s.deploy();
        planAll(s);
        decide(s, first, deployment, Map.of("decision", "approve")).then().statusCode(201);
        assertThat(s.status(deployment)).as("one of two approvals").isEqualTo("awaiting_approval");
        String queued = s.deploy();
        assertThat(s.status(queued)).isEqualTo("queued");

        decide(s, second, deployment, Map.of("decision", "reject", "comment", "not on a Friday"))
                .then()
                .statusCode(201);
        Map<String, Object> rejected = s.deployment(deployment);
        assertThat(rejected.get("status")).isEqualTo("cancelled");
        assertThat((String) rejected.get("error")).contains("rejected by").contains("not on a Friday");
        assertThat(s.nodeStatuses(deployment).values()).containsOnly("cancelled");
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("nodes"))
                .as("nothing was applied")
                .isEmpty();
        assertThat(s.status(queued))
                .as("the environment is free for the next deployment")
                .isIn("running", "awaiting_approval");
    }

    @Test
    void approvingAPlanWhoseInputsMovedIsAConflictAndTheDeploymentFailsWithoutApplying() {
        Scenario s = gated(Map.of());
        String approver = tokenFor(s.org, "platform-engineer");
        String deployment = s.deploy();
        planAll(s);
        assertThat(s.status(deployment)).isEqualTo("awaiting_approval");
        // the provider's secret is rotated after the plan: what would apply is not what was reviewed
        admin().body(Map.of(
                        "source",
                        "hashicorp/null",
                        "configuration",
                        Map.of(),
                        "secrets",
                        Map.of("token", "rotated-" + UUID.randomUUID())))
                .put("/api/v1/orgs/{org}/providers/null/default", s.org)
                .then()
                .statusCode(200);

        problem(decide(s, approver, deployment, Map.of("decision", "approve")), 409, "conflict")
                .body("detail", containsString("is stale"))
                .body("detail", containsString("inputs of thing/default/app.a changed"))
                .body("detail", containsString("plan again"));
        Map<String, Object> stale = s.deployment(deployment);
        assertThat(stale.get("status")).isEqualTo("failed");
        assertThat(((Map<?, ?>) stale.get("approval")).get("state")).isEqualTo("stale");
        assertThat(s.claimAll()).isEmpty();
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("nodes"))
                .isEmpty();
    }

    @Test
    void approvingAPlanWhoseStateMovedIsAConflict() {
        Scenario s = gated(Map.of());
        String approver = tokenFor(s.org, "platform-engineer");
        String deployment = s.deploy();
        planAll(s);
        // a state written behind Polystack's back (a restore from a backup, say) after the plan
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery("""
                        insert into state_version (id, environment_id, resource_key, serial, lineage, content, size, created_at)
                        select ?1, environment_id, 'thing/default/app.a', 7, 'restored', '\\x00'::bytea, 1, now()
                        from deployment where id = ?2""")
                        .setParameter(1, UUID.randomUUID())
                        .setParameter(2, UUID.fromString(deployment))
                        .executeUpdate());

        problem(decide(s, approver, deployment, Map.of("decision", "approve")), 409, "conflict")
                .body(
                        "detail",
                        containsString("the state of thing/default/app.a moved (serial -1 when planned, 7 now)"));
        assertThat(s.status(deployment)).isEqualTo("failed");
    }

    @Test
    void aPlanThatChangesNothingAppliesWithoutWaiting() {
        Scenario s = gated(Map.of());
        String approver = tokenFor(s.org, "platform-engineer");
        deployedWithApproval(s, approver);

        String again = s.deploy();
        assertThat(s.claimAll()).isEmpty();
        Map<String, Object> unchanged = s.deployment(again);
        assertThat(unchanged.get("status")).isEqualTo("succeeded");
        assertThat(((Map<?, ?>) unchanged.get("approval")).get("state")).isEqualTo("not-needed");
        assertThat(s.nodeStatuses(again).values()).containsOnly("unchanged");
    }

    @Test
    void aRemovalIsPartOfThePlanAndIsDestroyedOnlyAfterTheApproval() {
        Scenario s = gated(Map.of());
        String approver = tokenFor(s.org, "platform-engineer");
        deployedWithApproval(s, approver);

        s.manifest(graph("a", List.of()));
        String removal = s.deploy();
        assertThat(s.claimAll())
                .as("a is unchanged; b's removal needs no plan job")
                .isEmpty();
        Map<String, Object> waiting = s.deployment(removal);
        assertThat(waiting.get("status")).isEqualTo("awaiting_approval");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> nodes = (List<Map<String, Object>>) waiting.get("nodes");
        assertThat(nodes)
                .filteredOn(n -> n.get("id").equals("app.b"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.get("status")).isEqualTo("planned");
                    assertThat(n.get("action")).isEqualTo("delete");
                    assertThat(((Map<?, ?>) n.get("plan_summary")).get("destroy"))
                            .isEqualTo(1);
                });
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("nodes.id"))
                .as("b stays until the removal is approved")
                .contains("app.b");

        decide(s, approver, removal, Map.of("decision", "approve")).then().statusCode(201);
        Map<String, Map<String, Object>> destroys = s.claimAll();
        assertThat(destroys).containsOnlyKeys("app.b");
        assertThat(destroys.get("app.b").get("operation")).isEqualTo("destroy");
        destroys.values().forEach(s::succeed);
        assertThat(s.status(removal)).isEqualTo("succeeded");
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .extract()
                        .jsonPath()
                        .getList("nodes.id"))
                .containsExactly("app.a");
    }

    @Test
    void aPlanNobodyDecidesOnExpiresAndFreesTheEnvironment() {
        Scenario s = gated(Map.of("expires_after_hours", 1));
        String deployment = s.deploy();
        planAll(s);
        Object expires = ((Map<?, ?>) s.deployment(deployment).get("approval")).get("expires_at");
        assertThat(expires).isNotNull();
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update deployment set approval_expires_at = now() - interval '1 second' where id = ?1")
                        .setParameter(1, UUID.fromString(deployment))
                        .executeUpdate());

        await().atMost(Duration.ofSeconds(15)).until(() -> s.status(deployment).equals("cancelled"));
        Map<String, Object> expired = s.deployment(deployment);
        assertThat(((Map<?, ?>) expired.get("approval")).get("state")).isEqualTo("expired");
        assertThat((String) expired.get("error")).contains("not approved before");
        assertThat(admin().queryParam("action", "expireApproval")
                        .get("/api/v1/orgs/{org}/audit-events", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .<Map<String, Object>>getList("items"))
                .singleElement()
                .satisfies(event -> {
                    assertThat(event.get("actor")).isEqualTo("polystack");
                    assertThat(event.get("actor_kind")).isEqualTo("system");
                    assertThat((String) event.get("target")).endsWith("/deployments/" + deployment);
                });
    }

    @Test
    void cancellingADeploymentThatWaitsForApprovalEndsIt() {
        Scenario s = gated(Map.of());
        String deployment = s.deploy();
        planAll(s);
        admin().post(ENV + "/deployments/{id}/cancel", s.org, deployment).then().statusCode(200);
        assertThat(s.status(deployment)).isEqualTo("cancelled");
        assertThat(((Map<?, ?>) s.deployment(deployment).get("approval")).get("state"))
                .isEqualTo("cancelled");
        assertThat(s.nodeStatuses(deployment).values()).containsOnly("cancelled");
    }

    @Test
    void aFailedPlanFailsTheDeploymentWithNothingApplied() {
        Scenario s = gated(Map.of());
        String deployment = s.deploy();
        s.claimAll().values().forEach(job -> s.runner.fail(job, "Error: invalid value"));
        assertThat(s.status(deployment)).isEqualTo("failed");
        assertThat((String) s.deployment(deployment).get("error")).contains("failed to plan; nothing was applied");
        assertThat(((Map<?, ?>) s.deployment(deployment).get("approval")).get("state"))
                .isEqualTo("plan-failed");
        assertThat(s.nodeStatuses(deployment)).containsEntry("app.a", "failed").containsEntry("app.b", "skipped");
        assertThat(admin().get(ENV + "/issues", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items"))
                .as("a failed plan is not a failed apply")
                .isEmpty();
    }

    @Test
    void approvalPoliciesAreValidated() {
        Scenario s = new Scenario(1);
        problem(
                        admin().body(Map.of("approval", Map.of("required", 0)))
                                .put("/api/v1/orgs/{org}/env-types/production", s.org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/approval/required"));
        problem(
                admin().body(Map.of("approval", Map.of("approvers", List.of("boss"))))
                        .put("/api/v1/orgs/{org}/env-types/production", s.org),
                400,
                "validation");
        admin().body(Map.of("approval", Map.of("deployments", true, "approvers", List.of("developer"))))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200)
                .body("approval.approvers", equalTo(List.of("developer")))
                .body("approval.expires_after_hours", equalTo(24));
        admin().body(Map.of("approval", Map.of()))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200)
                .body("approval", equalTo(null));
        // the settings come back with the API's fields only (a helper such as isEmpty() once leaked in as "empty")
        Map<String, Object> type = admin().body(
                        Map.of("approval", Map.of("deployments", true), "checks", Map.of("interval_minutes", 60)))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("");
        assertThat(((Map<?, ?>) type.get("approval"))
                        .keySet().stream().map(String::valueOf).toList())
                .containsExactlyInAnyOrder(
                        "deployments", "required", "approvers", "allow_self_approval", "expires_after_hours");
        assertThat(((Map<?, ?>) type.get("checks"))
                        .keySet().stream().map(String::valueOf).toList())
                .containsExactlyInAnyOrder("interval_minutes", "refresh_only");
    }
}
