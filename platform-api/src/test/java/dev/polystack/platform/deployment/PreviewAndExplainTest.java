package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/** Dry-running a manifest that is not stored, and explaining the rules' choice for one resource. */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class PreviewAndExplainTest {

    private static final String DRY_RUN = "/api/v1/orgs/{org}/projects/shop/envs/prod/manifest/dry-run";
    private static final String EXPLAIN = "/api/v1/orgs/{org}/projects/shop/envs/prod/explain";

    @Test
    void anUnsavedManifestIsDryRunWithoutStoringAnything() {
        Scenario scenario = new Scenario(1);
        String yaml =
                "workloads:\n  app:\n    resources:\n      a:\n        type: thing\n      b:\n        type: thing\n"
                        + "        params:\n          upstream: \"${resources.a.outputs.name}\"\n";
        admin().contentType("application/yaml")
                .body(yaml.getBytes(StandardCharsets.UTF_8))
                .post(DRY_RUN, scenario.org)
                .then()
                .statusCode(200)
                .body("manifest_version", nullValue())
                .body("nodes.id", containsInAnyOrder("app.a", "app.b"))
                .body("nodes.change", contains("added", "added"))
                .body("edges", hasSize(1))
                .body("edges[0].alias", equalTo("resources.a"))
                .body("summary.add", equalTo(2));
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/manifests", scenario.org)
                .then()
                .statusCode(200)
                .body("items", hasSize(0));
    }

    @Test
    void aBadManifestAnswersWithTheLineOfEachError() {
        Scenario scenario = new Scenario(1);
        String yaml =
                "workloads:\n  app:\n    resources:\n      a:\n        type: thing\n      b:\n        type: nothing\n";
        var errors = problem(
                        admin().contentType("application/yaml")
                                .body(yaml.getBytes(StandardCharsets.UTF_8))
                                .post(DRY_RUN, scenario.org),
                        422,
                        "unprocessable")
                .extract()
                .jsonPath();
        assertThat(errors.getString("errors[0].path")).isEqualTo("workloads.app.resources.b.type");
        assertThat(errors.getInt("errors[0].line")).isEqualTo(7);
        problem(
                admin().contentType("application/yaml").body(new byte[0]).post(DRY_RUN, scenario.org),
                400,
                "validation");
        problem(
                as(tokenFor(scenario.org, "viewer"))
                        .contentType("application/yaml")
                        .body(yaml.getBytes(StandardCharsets.UTF_8))
                        .post(DRY_RUN, scenario.org),
                403,
                "forbidden");
    }

    @Test
    void explainShowsEveryRuleConsideredAndTheMostSpecificWinner() {
        Scenario scenario = new Scenario(1);
        RunnerDriver.register(scenario.org, "prod-runner", 1);
        RunnerDriver.register(scenario.org, "staging-runner", 1);
        String prodRule = admin().body(Map.of("runner_id", "prod-runner", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/runner-rules", scenario.org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        admin().body(Map.of("id", "staging"))
                .post("/api/v1/orgs/{org}/env-types", scenario.org)
                .then()
                .statusCode(201);
        admin().body(Map.of("runner_id", "staging-runner", "env_type_id", "staging"))
                .post("/api/v1/orgs/{org}/runner-rules", scenario.org)
                .then()
                .statusCode(201);

        var explanation = as(tokenFor(scenario.org, "viewer"))
                .queryParam("type", "thing")
                .queryParam("id", "app.a")
                .get(EXPLAIN, scenario.org)
                .then()
                .statusCode(200)
                .body("resource.resource_class", equalTo("default"))
                .body("module.chosen", equalTo("thing"))
                .body("runner.chosen", equalTo("prod-runner"))
                .body("runner.winner", equalTo(prodRule))
                .body("runner.candidates", hasSize(3))
                .extract()
                .jsonPath();
        List<Map<String, Object>> candidates = explanation.getList("runner.candidates");
        Map<String, Object> staging = candidates.stream()
                .filter(c -> c.get("target").equals("staging-runner"))
                .findFirst()
                .orElseThrow();
        assertThat(staging.get("matched")).isEqualTo(false);
        assertThat(staging.get("reasons").toString()).contains("staging").contains("production");

        problem(admin().queryParam("type", "thing").get(EXPLAIN, scenario.org), 400, "validation")
                .body("errors[0].pointer", equalTo("id"));
        problem(
                        admin().queryParam("type", "nothing")
                                .queryParam("id", "x")
                                .get(EXPLAIN, scenario.org),
                        422,
                        "unprocessable")
                .body("detail", containsString("nothing"));
    }
}
