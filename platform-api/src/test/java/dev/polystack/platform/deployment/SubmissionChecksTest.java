package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * What a manifest refers to is checked when it is submitted; what can still go wrong later (outputs that
 * are declared but were not produced) fails the node with a log line, and a dry-run says where instead of
 * answering 500. Changes of the output schema or of a provider run resources again, and dry-runs say why.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class SubmissionChecksTest {

    private static final String MANIFEST = "/api/v1/orgs/{org}/projects/shop/envs/prod/manifest";
    private static final String DEPLOYMENTS = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments";

    private static String twoResources(String reference) {
        return "workloads:\n  app:\n    resources:\n      a:\n        type: thing\n      b:\n        type: thing\n"
                + "        params:\n          upstream: \"" + reference + "\"\n";
    }

    private static Response putManifest(Scenario s, String yaml) {
        return admin().contentType("application/yaml")
                .body(yaml.getBytes(StandardCharsets.UTF_8))
                .put(MANIFEST, s.org);
    }

    private static Response dryRun(Scenario s) {
        return admin().body(Map.of("mode", "dry-run")).post(DEPLOYMENTS, s.org);
    }

    private static void outputSchema(Scenario s, Map<String, Object> properties) {
        admin().body(Map.of(
                        "output_schema",
                        Map.of("type", "object", "required", List.of("name"), "properties", properties)))
                .put("/api/v1/orgs/{org}/resource-types/thing", s.org)
                .then()
                .statusCode(200);
    }

    @Test
    void aReferenceToAnOutputTheTypeDoesNotDeclareIsRefusedAtItsPathAndLine() {
        Scenario s = new Scenario(1);
        problem(putManifest(s, twoResources("${resources.a.outputs.nmae}")), 422, "unprocessable")
                .body("errors[0].path", equalTo("workloads.app.resources.b.params.upstream"))
                .body("errors[0].line", equalTo(9))
                .body(
                        "errors[0].detail",
                        containsString("resource type `thing` declares no output `nmae` (it declares name)"));
        problem(putManifest(s, twoResources("${resources.a.outputs.name[0]}")), 422, "unprocessable")
                .body("errors[0].detail", containsString("`name` is a string, not a list"));
        putManifest(s, twoResources("${resources.a.outputs.name}")).then().statusCode(201);
    }

    @Test
    void aDeclaredOutputThatWasNotProducedFailsTheNodeWithALogLineAndTheDryRunSaysWhere() {
        Scenario s = new Scenario(2);
        outputSchema(s, Map.of("name", Map.of("type", "string"), "port", Map.of("type", "integer")));
        putManifest(s, twoResources("${resources.a.outputs.port}")).then().statusCode(201);
        String id = s.deploy();
        s.claimAll().values().forEach(s::succeed); // a reports its name only
        // b will run whatever its inputs are (it is new), so they are resolved when its job is claimed: the
        // claim finds them unresolvable, fails b, and has no job to give
        assertThat(s.claimAll()).isEmpty();
        Map<String, Object> deployment = s.deployment(id);
        assertThat(deployment.get("status")).isEqualTo("failed");
        assertThat(s.nodeStatuses(id)).containsEntry("app.b", "failed");
        var logs = admin().get(DEPLOYMENTS + "/{id}/logs", s.org, id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(logs.getList("items.findAll { it.node == 'thing/default/app.b' }.message", String.class))
                .singleElement()
                .asString()
                .contains("could not be resolved")
                .contains("has no output `port`");
        assertThat(logs.getString("items.find { it.node == 'thing/default/app.b' }.level"))
                .isEqualTo("error");
        problem(dryRun(s), 422, "unprocessable")
                .body("errors[0].path", equalTo("workloads.app.resources.b"))
                .body("errors[0].detail", containsString("has no output `port`"));
    }

    @Test
    void aChangedOutputSchemaRunsTheResourceAgainAndTheDryRunSaysWhy() {
        Scenario s = new Scenario(2);
        s.manifest(Map.of("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        dryRun(s)
                .then()
                .statusCode(200)
                .body("nodes[0].change", equalTo("unchanged"))
                .body("nodes[0].reasons", Matchers.empty());

        outputSchema(s, Map.of("name", Map.of("type", "string"), "endpoint", Map.of("type", "string")));
        dryRun(s)
                .then()
                .statusCode(200)
                .body("nodes[0].change", equalTo("definition_changed"))
                .body("nodes[0].reasons", contains("schema"));
        s.deploy();
        assertThat(s.claimAll()).as("the resource runs again").containsOnlyKeys("app.a");
    }

    @Test
    void aChangedProviderRunsTheResourceAgainAndTheDryRunSaysWhy() {
        Scenario s = new Scenario(2);
        s.manifest(Map.of("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        admin().body(Map.of(
                        "provider_type",
                        "null",
                        "id",
                        "default",
                        "source",
                        "hashicorp/null",
                        "version_constraint",
                        "~> 3.2",
                        "configuration",
                        Map.of(),
                        "secrets",
                        Map.of("token", "***")))
                .put("/api/v1/orgs/{org}/providers/null/default", s.org)
                .then()
                .statusCode(200);
        dryRun(s)
                .then()
                .statusCode(200)
                .body("nodes[0].change", equalTo("definition_changed"))
                .body("nodes[0].reasons", contains("providers"));
        s.deploy();
        assertThat(s.claimAll()).containsOnlyKeys("app.a");
    }

    @Test
    void aDependentOfAResourceThatRunsSeesItsOutputsAsKnownAfterApply() {
        Scenario s = new Scenario(2);
        s.manifest(Map.of("a", List.of(), "b", List.of("a")));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        s.manifest(Map.of("a", List.of(), "b", List.of("a")), Map.of("a", 3));
        dryRun(s)
                .then()
                .statusCode(200)
                .body("nodes.find { it.id == 'app.a' }.reasons", contains("inputs"))
                .body("nodes.find { it.id == 'app.b' }.change", equalTo("inputs_changed"))
                .body("nodes.find { it.id == 'app.b' }.unknown", contains("upstream"));
    }

    @Test
    void outputsTheModuleHasButTheTypeDoesNotDeclareAreReportedStoredAndShown() {
        Scenario s = new Scenario(1);
        s.defineModule(
                "resource \"terraform_data\" \"this\" { input = var.name }\noutput \"extra\" { value = \"more\" }");
        s.manifest(Map.of("a", List.of()));
        s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        assertThat(job.get("outputs")).asList().containsExactlyInAnyOrder("name", "extra");
        s.runner.succeed(job, Map.of("name", "a", "extra", "more"));
        admin().queryParam("outputs", true)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .body("nodes[0].outputs.extra", equalTo("more"))
                .body("nodes[0].outputs.name", equalTo("a"));
        admin().get("/api/v1/orgs/{org}/modules/thing", s.org)
                .then()
                .body("module_interface.outputs.name", hasItem("extra"));
    }
}
