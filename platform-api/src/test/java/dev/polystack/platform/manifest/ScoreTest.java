package dev.polystack.platform.manifest;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/** A Score file from the Score project's examples (see src/test/resources/score/NOTICE), converted and deployed. */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ScoreTest {

    static final String SCORE = "/api/v1/orgs/{org}/projects/shop/envs/prod/manifest/score";

    @Test
    void theScoreExampleWithAPostgresDeploysWithTheDatabasesOutputsInTheContainersVariables() throws IOException {
        Scenario s = new Scenario(2);
        platform(s.org);
        int version = admin().contentType("application/yaml")
                .body(example())
                .post(SCORE, s.org)
                .then()
                .statusCode(201)
                .body("content", containsString("${resources.my-postgres.outputs.host}"))
                .extract()
                .path("version");
        String id = s.create(Map.of("mode", "deploy", "manifest_version", version))
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        Map<String, Object> database = s.claimAll().get("my-workload.my-postgres");
        assertThat(database).isNotNull();
        s.runner
                .result(
                        database.get("job_id"),
                        Map.of(
                                "status",
                                "succeeded",
                                "outputs",
                                Map.of(
                                        "host",
                                        Map.of("value", "db.internal", "sensitive", false),
                                        "port",
                                        Map.of("value", 5432, "sensitive", false),
                                        "database",
                                        Map.of("value", "app", "sensitive", false),
                                        "username",
                                        Map.of("value", "app", "sensitive", false),
                                        "password",
                                        Map.of("value", "s3cret-password", "sensitive", true))))
                .then()
                .statusCode(204);
        Map<String, Object> workload = s.claimAll().get("my-workload.workload");
        assertThat(workload).isNotNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> variables = (Map<String, Object>) ((Map<String, Object>)
                        ((Map<String, Object>) ((Map<String, Object>) workload.get("inputs")).get("containers"))
                                .get("my-container"))
                .get("variables");
        assertThat(variables)
                .containsEntry("POSTGRES_HOST", "db.internal")
                .containsEntry("POSTGRES_PORT", 5432)
                .containsEntry("POSTGRES_PASSWORD", "s3cret-password");
        s.runner.succeed(workload, Map.of());
        assertThat(s.status(id)).isEqualTo("succeeded");
    }

    @Test
    void whatCannotBeConvertedIsA422NamingWhere() {
        Scenario s = new Scenario(1);
        problem(
                        admin().contentType("application/yaml")
                                .body(yaml("apiVersion: score.dev/v1b1\nmetadata: { name: web }\ncontainers: {}\n"))
                                .post(SCORE, s.org),
                        422,
                        "unprocessable")
                .body("errors.pointer", hasItem("/containers"));
        problem(
                        admin().contentType("application/yaml")
                                .body(
                                        yaml(
                                                "apiVersion: score.dev/v1b1\nmetadata: { name: web }\n"
                                                        + "containers: { main: { image: nginx } }\nresources: { db: { type: postgres, metadata: { annotations: { example.com/owner: team-a } } } }\n"))
                                .post(SCORE, s.org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/resources/db/metadata"));
        problem(
                        admin().contentType("application/yaml")
                                .queryParam("workload_type", "Not A Type")
                                .body(yaml("x: 1"))
                                .post(SCORE, s.org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("workload_type"));
        // converted, then refused by the organization's configuration: there is no type score-workload here
        problem(
                admin().contentType("application/yaml")
                        .body(yaml("apiVersion: score.dev/v1b1\nmetadata: { name: web }\n"
                                + "containers: { main: { image: nginx } }\n"))
                        .post(SCORE, s.org),
                422,
                "unprocessable");
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/manifests", s.org)
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
    }

    /** The platform side: a score-workload type and a postgres type, each with a module and a rule. */
    private static void platform(String org) {
        admin().body(Map.of("id", "score-workload", "output_schema", Map.of("type", "object")))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "workload-module",
                        "resource_type",
                        "score-workload",
                        "module_source",
                        "inline",
                        "module_source_code",
                        """
                        variable "metadata" { type = any }
                        variable "containers" { type = any }
                        variable "service" {
                          type    = any
                          default = null
                        }
                        resource "terraform_data" "this" { input = var.containers }
                        """,
                        "module_params",
                        Map.of(
                                "metadata",
                                Map.of("type", "any"),
                                "containers",
                                Map.of("type", "any"),
                                "service",
                                Map.of("type", "any", "is_optional", true))))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("module_id", "workload-module"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "postgres",
                        "output_schema",
                        Map.of(
                                "type",
                                "object",
                                "properties",
                                Map.of(
                                        "host",
                                        Map.of("type", "string"),
                                        "port",
                                        Map.of("type", "integer"),
                                        "database",
                                        Map.of("type", "string"),
                                        "username",
                                        Map.of("type", "string"),
                                        "password",
                                        Map.of("type", "string")))))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "postgres-module",
                        "resource_type",
                        "postgres",
                        "module_source",
                        "inline",
                        "module_source_code",
                        """
                resource "terraform_data" "db" { input = "db" }
                output "host" { value = "db.internal" }
                output "port" { value = 5432 }
                output "database" { value = "app" }
                output "username" { value = "app" }
                output "password" {
                  value     = "generated"
                  sensitive = true
                }
                """))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("module_id", "postgres-module"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201);
    }

    private static byte[] yaml(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] example() throws IOException {
        try (InputStream in = ScoreTest.class.getResourceAsStream("/score/postgres-example.yaml")) {
            return in.readAllBytes();
        }
    }
}
