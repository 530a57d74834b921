package dev.polystack.platform.issue;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * The convergence loop's checks and issues through the API and the runner protocol: a check plans what each
 * resource was last applied with, what it reports opens or resolves issues, and checks never run beside a
 * deployment of their environment.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ChecksAndIssuesTest {

    @Inject
    EntityManager entityManager;

    private static final String ENV = "/api/v1/orgs/{org}/projects/shop/envs/prod";

    private static Scenario deployed(String... aliases) {
        Scenario s = new Scenario(4);
        Object[] spec = new Object[aliases.length * 2];
        for (int i = 0; i < aliases.length; i++) {
            spec[2 * i] = aliases[i];
            spec[2 * i + 1] = List.of();
        }
        s.manifest(graph(spec));
        String deployment = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(deployment)).isEqualTo("succeeded");
        return s;
    }

    private static Response startCheck(Scenario s, Map<String, Object> body) {
        return admin().body(body).post(ENV + "/checks", s.org);
    }

    private static String check(Scenario s) {
        return check(s, Map.of());
    }

    private static String check(Scenario s, Map<String, Object> body) {
        return startCheck(s, body).then().statusCode(201).extract().path("id");
    }

    private static Map<String, Object> report(
            boolean drifted, boolean changes, List<Map<String, Object>> drift, List<Map<String, Object>> planned) {
        return Map.of(
                "drifted",
                drifted,
                "changes_pending",
                changes,
                "drift",
                drift,
                "changes",
                planned,
                "relevant_attributes",
                List.of());
    }

    private static final Map<String, Object> IN_PLACE = report(
            true,
            true,
            List.of(Map.of(
                    "address",
                    "module.main.terraform_data.this",
                    "actions",
                    List.of("update"),
                    "attributes",
                    List.of(Map.of("path", "input", "before", "prod-app.a", "after", "changed by hand")))),
            List.of(Map.of("address", "module.main.terraform_data.this", "actions", List.of("update"))));

    private static final Map<String, Object> REPLACE = report(
            false,
            true,
            List.of(),
            List.of(Map.of(
                    "address",
                    "module.main.terraform_data.this",
                    "actions",
                    List.of("delete", "create"),
                    "action_reason",
                    "replace_because_cannot_update")));

    private static final Map<String, Object> CLEAN = report(false, false, List.of(), List.of());

    private static void reportCheck(Scenario s, Map<String, Object> job, Map<String, Object> report) {
        s.runner
                .result(
                        job.get("job_id"),
                        Map.of(
                                "status",
                                "succeeded",
                                "check",
                                report,
                                "plan_summary",
                                Map.of("add", 0, "change", 0, "destroy", 0)))
                .then()
                .statusCode(204);
    }

    private static List<Map<String, Object>> issues(Scenario s, String query) {
        return admin().get(ENV + "/issues" + query, s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    private static String activeModuleVersion(Scenario s, String resource) {
        return admin().get(ENV + "/resource-graph", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("nodes.find { it.id == '" + resource + "' }.module_version");
    }

    @Test
    void aCheckPlansWhatWasLastAppliedAndDriftItFindsOpensAnIssueThatACleanCheckResolves() {
        Scenario s = deployed("a", "b");
        String moduleVersionBefore = activeModuleVersion(s, "app.a");
        // a new module version is not deployed: the check must still use what was applied
        s.defineModule("resource \"terraform_data\" \"this\" { input = \"v2-${var.name}\" }");

        String check = startCheck(s, Map.of("refresh_only", true))
                .then()
                .statusCode(201)
                .body("mode", org.hamcrest.Matchers.equalTo("check"))
                .extract()
                .path("id");
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs).containsOnlyKeys("app.a", "app.b");
        Map<String, Object> a = jobs.get("app.a");
        assertThat(a.get("operation")).isEqualTo("check");
        assertThat(a.get("refresh_only")).isEqualTo(true);
        assertThat(a.get("deployment_id")).isEqualTo(check);
        @SuppressWarnings("unchecked")
        Map<String, Object> module = (Map<String, Object>) a.get("module");
        assertThat(module.get("version"))
                .as("the module version last applied, not the newest")
                .isEqualTo(1);
        assertThat((String) module.get("code")).doesNotContain("v2-");
        @SuppressWarnings("unchecked")
        Map<String, Object> inputs = (Map<String, Object>) a.get("inputs");
        assertThat(inputs.get("name")).isEqualTo("prod-app.a");

        reportCheck(s, a, IN_PLACE);
        reportCheck(s, jobs.get("app.b"), CLEAN);
        assertThat(s.status(check)).isEqualTo("succeeded");
        assertThat(activeModuleVersion(s, "app.a"))
                .as("a check changes no active resource")
                .isEqualTo(moduleVersionBefore);

        List<Map<String, Object>> open = issues(s, "?state=open&kind=drift");
        assertThat(open).singleElement().satisfies(issue -> {
            assertThat(issue.get("kind")).isEqualTo("drift");
            assertThat(issue.get("resource")).isEqualTo("thing/default/app.a");
            assertThat(issue.get("project")).isEqualTo("shop");
            assertThat(issue.get("env")).isEqualTo("prod");
            assertThat((String) issue.get("summary"))
                    .contains("changed outside Polystack", "module.main.terraform_data.this (input)");
            assertThat(issue.get("seen_by")).isEqualTo(check);
            assertThat(issue.toString()).contains("changed by hand");
        });
        var graph = admin().get(ENV + "/resource-graph", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        // each also has a module-outdated issue: the rules pick version 2 now
        assertThat(graph.getInt("nodes.find { it.id == 'app.a' }.issues")).isEqualTo(2);
        assertThat(graph.getInt("nodes.find { it.id == 'app.b' }.issues")).isEqualTo(1);
        assertThat(graph.getString("nodes.find { it.id == 'app.a' }.status"))
                .as("how the resource is, not how its check went")
                .isEqualTo("succeeded");
        String issueId = (String) open.get(0).get("id");
        String firstSeen = (String) open.get(0).get("first_seen");

        // seen again: the same issue, last seen later
        String again = check(s);
        s.claimAll().forEach((resource, job) -> reportCheck(s, job, resource.equals("app.a") ? IN_PLACE : CLEAN));
        assertThat(issues(s, "?state=open&kind=drift")).singleElement().satisfies(issue -> {
            assertThat(issue.get("id")).isEqualTo(issueId);
            assertThat(issue.get("first_seen")).isEqualTo(firstSeen);
            assertThat(issue.get("seen_by")).isEqualTo(again);
        });

        // a refresh-only check sees only the world, not the configuration: finding nothing, it resolves nothing
        check(s, Map.of("refresh_only", true));
        s.claimAll().values().forEach(job -> reportCheck(s, job, CLEAN));
        assertThat(issues(s, "?state=open&kind=drift"))
                .extracting(i -> i.get("id"))
                .containsExactly(issueId);

        // gone: resolved, saying which check showed it
        String clean = check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, CLEAN));
        assertThat(issues(s, "?state=open&kind=drift")).isEmpty();
        assertThat(issues(s, "?state=resolved&kind=drift")).singleElement().satisfies(issue -> {
            assertThat(issue.get("id")).isEqualTo(issueId);
            assertThat(issue.get("resolved_by")).isEqualTo(clean);
            assertThat((String) issue.get("resolution")).contains("no drift");
        });
    }

    @Test
    void driftThatNeedsAReplaceIsDestructiveAndAnApplyResolvesIt() {
        Scenario s = deployed("a");
        check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, REPLACE));
        assertThat(issues(s, "?state=open")).singleElement().satisfies(issue -> {
            assertThat(issue.get("kind")).isEqualTo("destructive-drift");
            assertThat((String) issue.get("summary"))
                    .contains("replaces module.main.terraform_data.this (replace_because_cannot_update)");
        });
        // the drift turns out to be in place after all: one issue of the new kind, the old one resolved
        check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, IN_PLACE));
        assertThat(issues(s, "?state=open")).extracting(i -> i.get("kind")).containsExactly("drift");

        String forced = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        s.claimAll().values().forEach(s::succeed);
        assertThat(issues(s, "?state=open")).isEmpty();
        assertThat(issues(s, "?kind=drift"))
                .singleElement()
                .satisfies(issue -> assertThat(issue.get("resolved_by")).isEqualTo(forced));
    }

    @Test
    void aFailedApplyOpensAnIssueTheResourceIsNotCheckedUntilAnApplySucceeds() {
        Scenario s = deployed("a", "b");
        s.manifest(graph("a", List.of(), "b", List.of()), Map.of("a", 2));
        String failing = s.deploy();
        s.claimAll().values().forEach(job -> s.runner.fail(job, "the provider refused"));
        assertThat(s.status(failing)).isEqualTo("failed");
        assertThat(issues(s, "?state=open&kind=apply-failed")).singleElement().satisfies(issue -> {
            assertThat(issue.get("resource")).isEqualTo("thing/default/app.a");
            assertThat((String) issue.get("summary")).contains("the provider refused");
        });

        String check = check(s);
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs).as("a resource whose last apply failed is not checked").containsOnlyKeys("app.b");
        assertThat(s.nodeStatuses(check)).containsEntry("app.a", "skipped");
        // a check that fails opens its own issue
        s.runner.fail(jobs.get("app.b"), "Error: could not reach the API");
        assertThat(issues(s, "?state=open&kind=check-failed"))
                .singleElement()
                .satisfies(issue -> assertThat((String) issue.get("summary")).contains("could not reach the API"));
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("nodes.find { it.id == 'app.b' }.status"))
                .as("its last deployment's status, not its failed check's")
                .isEqualTo("unchanged");

        String fixed = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(fixed)).isEqualTo("succeeded");
        assertThat(issues(s, "?state=open"))
                .as("the apply of a resolves its failure; b was unchanged, its failed check stays")
                .extracting(i -> i.get("kind") + " " + i.get("resource"))
                .containsExactly("check-failed thing/default/app.b");
    }

    @Test
    void checksAndDeploymentsNeverRunInOneEnvironmentAtOnce() {
        Scenario s = deployed("a");
        // a deployment waits: no check
        s.manifest(graph("a", List.of()), Map.of("a", 3));
        String deployment = s.deploy();
        startCheck(s, Map.of())
                .then()
                .statusCode(409)
                .contentType(containsString("application/problem+json"))
                .body("detail", containsString("checks run when the environment has no deployment running or waiting"));
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(deployment)).isEqualTo("succeeded");

        // a deployment created while a check runs cancels the check and starts only once it ended
        String check = check(s);
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs).hasSize(1);
        String next = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(s.status(next)).isEqualTo("queued");
        Map<String, Object> job = jobs.values().iterator().next();
        s.runner
                .heartbeat(job.get("job_id"))
                .then()
                .statusCode(200)
                .body("cancelled", org.hamcrest.Matchers.equalTo(true));
        s.runner
                .result(job.get("job_id"), Map.of("status", "cancelled", "error", Map.of("summary", "cancelled")))
                .then()
                .statusCode(204);
        assertThat(s.status(check)).isEqualTo("cancelled");
        assertThat(s.status(next)).isEqualTo("running");
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(next)).isEqualTo("succeeded");

        // checks are started by POST …/checks, not as deployments
        assertThat(s.create(Map.of("mode", "check"))
                        .then()
                        .statusCode(400)
                        .extract()
                        .jsonPath()
                        .getString("errors[0].pointer"))
                .isEqualTo("/mode");
    }

    @Test
    void issuesAreFilteredAcknowledgedAndListedPerOrganization() {
        Scenario s = deployed("a", "b");
        check(s);
        s.claimAll().forEach((resource, job) -> reportCheck(s, job, resource.equals("app.a") ? IN_PLACE : REPLACE));

        assertThat(issues(s, "?resource=thing/default/app.b"))
                .extracting(i -> i.get("kind"))
                .containsExactly("destructive-drift");
        assertThat(issues(s, "?kind=drift")).extracting(i -> i.get("resource")).containsExactly("thing/default/app.a");
        assertThat(issues(s, "?limit=1")).hasSize(1);
        assertThat(Api.allPages(1, ENV + "/issues", s.org))
                .as("page by page, ties of first seen included")
                .hasSize(2)
                .isEqualTo(issues(s, ""));
        assertThat(Api.allPages(1, "/api/v1/orgs/{org}/issues", s.org)).isEqualTo(issues(s, ""));
        admin().get(ENV + "/issues?kind=bogus", s.org)
                .then()
                .statusCode(400)
                .body("errors[0].pointer", org.hamcrest.Matchers.equalTo("kind"));
        admin().get(ENV + "/issues?resource=app.a", s.org)
                .then()
                .statusCode(400)
                .body("detail", containsString("type/class/id"));
        admin().get(ENV + "/issues?state=closed", s.org).then().statusCode(400);

        String id = (String) issues(s, "?kind=drift").get(0).get("id");
        admin().body(Map.of("comment", "known: a colleague is testing by hand"))
                .post(ENV + "/issues/{id}/acknowledge", s.org, id)
                .then()
                .statusCode(200)
                .body("ack_comment", org.hamcrest.Matchers.equalTo("known: a colleague is testing by hand"))
                .body("state", org.hamcrest.Matchers.equalTo("open"))
                .body("acknowledged_at", org.hamcrest.Matchers.notNullValue());
        admin().body(Map.of("comment", ""))
                .post(ENV + "/issues/{id}/acknowledge", s.org, id)
                .then()
                .statusCode(400);
        admin().body(Map.of("comment", "x"))
                .post(ENV + "/issues/{id}/acknowledge", s.org, java.util.UUID.randomUUID())
                .then()
                .statusCode(404);

        List<Map<String, Object>> all = admin().get("/api/v1/orgs/{org}/issues?state=open", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        assertThat(all)
                .extracting(i -> i.get("project") + "/" + i.get("env") + " " + i.get("resource"))
                .containsExactlyInAnyOrder("shop/prod thing/default/app.a", "shop/prod thing/default/app.b");
        // another organization sees none of them
        Scenario other = new Scenario(1);
        assertThat(admin().get("/api/v1/orgs/{org}/issues", other.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items"))
                .isEmpty();
    }

    @Test
    void aCheckSaysWhenTheRulesPickANewerModuleVersionAndAnApplyOfItResolvesThat() {
        Scenario s = deployed("a");
        s.defineModule("resource \"terraform_data\" \"this\" { input = \"v2-${var.name}\" }");
        check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, CLEAN));
        assertThat(issues(s, "?state=open")).singleElement().satisfies(issue -> {
            assertThat(issue.get("kind")).isEqualTo("module-outdated");
            assertThat((String) issue.get("summary"))
                    .contains("the rules now pick module thing v2; thing v1 is applied");
            assertThat(issue.get("detail").toString()).contains("wanted", "version=2");
        });
        String deployment = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(deployment)).isEqualTo("succeeded");
        assertThat(issues(s, "?state=open")).isEmpty();
        check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, CLEAN));
        assertThat(issues(s, "?state=open")).as("v2 is applied now").isEmpty();
    }

    @Test
    void aResourceWhoseRunnerIsOfflineIsNotCheckedAndGetsAnIssueUntilTheRunnerIsBack() {
        Scenario s = deployed("a");
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update runner set last_seen_at = now() - interval '1 hour' where org_id = (select id from organization where slug = ?1)")
                        .setParameter(1, s.org)
                        .executeUpdate());
        String check = check(s);
        assertThat(s.nodeStatuses(check)).containsEntry("app.a", "skipped");
        assertThat(s.status(check)).isEqualTo("succeeded");
        assertThat(issues(s, "?state=open")).singleElement().satisfies(issue -> {
            assertThat(issue.get("kind")).isEqualTo("runner-unavailable");
            assertThat((String) issue.get("summary")).contains("its runner `r1` is offline");
        });
        // the runner calls again (its claim finds nothing): the next check runs and resolves the issue
        assertThat(s.claimAll()).isEmpty();
        check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, CLEAN));
        assertThat(issues(s, "?state=open")).isEmpty();
        assertThat((String) issues(s, "?kind=runner-unavailable").get(0).get("resolution"))
                .contains("its runner is back");
    }

    @Test
    void aRunnerTakesDeploymentJobsBeforeCheckJobs() {
        Scenario s = deployed("a");
        admin().body(Map.of("id", "stage", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", s.org)
                .then()
                .statusCode(201);
        admin().contentType("application/yaml")
                .body("shared:\n  s: { type: thing }\n".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/stage/manifest", s.org)
                .then()
                .statusCode(201);
        check(s); // its job is queued first
        admin().body(Map.of("mode", "deploy"))
                .post("/api/v1/orgs/{org}/projects/shop/envs/stage/deployments", s.org)
                .then()
                .statusCode(201);

        Map<String, Object> first = s.runner.claim("0s");
        assertThat(first.get("operation")).isEqualTo("apply");
        assertThat(RunnerDriver.resourceOf(first)).isEqualTo("shared.s");
        s.succeed(first);
        assertThat(s.runner.claim("0s").get("operation")).isEqualTo("check");
    }

    @Test
    void aReportThatQuotesASecretOfTheJobIsStoredMasked() {
        Scenario s = deployed("a");
        check(s);
        s.claimAll()
                .values()
                .forEach(job -> reportCheck(
                        s,
                        job,
                        report(
                                true,
                                true,
                                List.of(Map.of(
                                        "address",
                                        "module.main.terraform_data.this",
                                        "actions",
                                        List.of("update"),
                                        "attributes",
                                        List.of(Map.of(
                                                "path",
                                                "input",
                                                "before",
                                                "token=" + Scenario.PROVIDER_SECRET,
                                                "after",
                                                "changed by hand")))),
                                List.of())));
        String body = admin().get(ENV + "/issues", s.org)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(body).contains("changed by hand").doesNotContain(Scenario.PROVIDER_SECRET);
        String deployment = admin().get(ENV + "/deployments", s.org)
                .then()
                .extract()
                .jsonPath()
                .getString("items[0].id");
        assertThat(admin().get(ENV + "/deployments/{id}", s.org, deployment)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .doesNotContain(Scenario.PROVIDER_SECRET);
    }

    @Test
    void destroyingAResourceResolvesItsIssues() {
        Scenario s = deployed("a");
        check(s);
        s.claimAll().values().forEach(job -> reportCheck(s, job, IN_PLACE));
        s.create(Map.of("mode", "destroy")).then().statusCode(201);
        s.claimAll().values().forEach(job -> s.runner.succeed(job, Map.of()));
        assertThat(issues(s, "?state=open")).isEmpty();
        assertThat((String) issues(s, "").get(0).get("resolution")).startsWith("destroyed by deployment");
    }
}
