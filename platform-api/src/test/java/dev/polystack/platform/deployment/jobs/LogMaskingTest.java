package dev.polystack.platform.deployment.jobs;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log lines are masked before they are stored: every secret the job could have seen (its provider
 * secrets, the sensitive outputs of its dependencies and of its own resource), wherever it appears in
 * the line, in every field.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class LogMaskingTest {

    static final String PASSWORD = "dependency-password-7f3e";
    static final String OWN_KEY = "own-previous-key-51ab";
    static final String LOGS = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs";

    @Test
    void everySecretTheJobCouldHaveSeenIsMaskedInEveryFieldOfALine() {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String first = s.deploy();
        Map<String, Object> a = s.claimAll().get("app.a");
        // a reports a sensitive output that b does not take as an input
        succeed(s, a, Map.of("password", PASSWORD, "key", OWN_KEY, "pin", "123"));
        Map<String, Object> b = s.claimAll().get("app.b");
        log(
                s,
                b,
                0,
                List.of(
                        line("info", null, PASSWORD),
                        line("info", null, PASSWORD + " was at the start, and at the end: " + Scenario.PROVIDER_SECRET),
                        line("warn", "type-" + PASSWORD, "in the type"),
                        line("error", null, "pin 123 is too short to mask"),
                        line("<b>LOUD</b>", null, "an unknown level")));
        s.succeed(b);

        JsonPath logs =
                admin().get(LOGS, s.org, first).then().statusCode(200).extract().jsonPath();
        assertThat(logs.getList("items.message", String.class))
                .containsExactly(
                        "***",
                        "*** was at the start, and at the end: ***",
                        "in the type",
                        "pin 123 is too short to mask",
                        "an unknown level");
        assertThat(logs.getList("items.type", String.class)).contains("type-***");
        assertThat(logs.getList("items.level", String.class)).containsExactly("info", "info", "warn", "error", "info");
        assertThat(logs.prettify()).doesNotContain(PASSWORD).doesNotContain(Scenario.PROVIDER_SECRET);

        // the next deployment of a sees a's own sensitive outputs (in its state): they are masked too
        s.manifest(Map.of("a", List.of(), "b", List.of("a")), Map.of("a", 2));
        String second = s.deploy();
        Map<String, Object> again = s.claimAll().get("app.a");
        log(s, again, 0, List.of(line("info", null, "old key " + OWN_KEY + ", password " + PASSWORD)));
        succeed(s, again, Map.of("password", PASSWORD, "key", OWN_KEY));
        assertThat(admin().get(LOGS, s.org, second)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items.message", String.class))
                .containsExactly("old key ***, password ***");
    }

    @Test
    void sensitiveOutputsAreReadableNowhereAViewerLooks() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> a = s.claimAll().get("app.a");
        succeed(s, a, Map.of("password", PASSWORD));
        String env = "/api/v1/orgs/{org}/projects/shop/envs/prod";
        for (String path : List.of(
                env + "/deployments/" + id,
                env + "/deployments",
                env + "/resource-graph?outputs=true",
                env + "/deployments/" + id + "/logs",
                env,
                "/api/v1/orgs/{org}/audit-events")) {
            String body =
                    admin().get(path, s.org).then().statusCode(200).extract().asString();
            assertThat(body).as(path).doesNotContain(PASSWORD);
        }
    }

    private static Map<String, Object> line(String level, String type, String message) {
        Map<String, Object> line = new java.util.HashMap<>();
        line.put("level", level);
        if (type != null) {
            line.put("type", type);
        }
        line.put("message", message);
        return line;
    }

    private static void log(Scenario s, Map<String, Object> job, int batch, List<Map<String, Object>> lines) {
        s.runner
                .request()
                .body(Map.of("batch", batch, "lines", lines))
                .post("/api/runner/v1/jobs/{id}/logs", job.get("job_id"))
                .then()
                .statusCode(204);
    }

    /** Succeeds with a `name` and the given sensitive outputs. */
    private static void succeed(Scenario s, Map<String, Object> job, Map<String, String> sensitive) {
        s.runner.succeed(
                job,
                Map.of("name", "out-" + RunnerDriver.resourceOf(job)),
                Map.copyOf(sensitive),
                "terraform_data.this");
    }
}
