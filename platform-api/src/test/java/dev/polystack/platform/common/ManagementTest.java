package dev.polystack.platform.common;

import dev.polystack.platform.runner.RunnerKeys;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * Every kind configuration as code manages says what manages it and whether it is protected; a
 * protected object refuses every delete until its protection is lifted, and an update that leaves
 * the two fields out keeps them.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ManagementTest {

    private String org;

    /** A kind: where it is created, its body, and its own path once created (rules get theirs from the answer). */
    private record Kind(String name, String collection, Map<String, Object> body, String self, boolean rule) {}

    @BeforeEach
    void organization() {
        org = createOrg();
    }

    private List<Kind> kinds() {
        String pem = RunnerKeys.toPem(RunnerDriver.newKeys().getPublic());
        return List.of(
                new Kind("environment type", "/env-types", Map.of("id", "production"), "/env-types/production", false),
                new Kind(
                        "resource type",
                        "/resource-types",
                        Map.of("id", "postgres"),
                        "/resource-types/postgres",
                        false),
                new Kind(
                        "provider",
                        "/providers",
                        Map.of("provider_type", "aws", "id", "main", "source", "hashicorp/aws"),
                        "/providers/aws/main",
                        false),
                new Kind(
                        "module",
                        "/modules",
                        Map.of(
                                "id",
                                "rds",
                                "resource_type",
                                "postgres",
                                "module_source",
                                "inline",
                                "module_source_code",
                                "# rds"),
                        "/modules/rds",
                        false),
                new Kind(
                        "module rule",
                        "/module-rules",
                        Map.of("module_id", "rds", "env_type_id", "production"),
                        null,
                        true),
                new Kind("runner", "/runners", Map.of("id", "r1", "public_key", pem), "/runners/r1", false),
                new Kind("runner rule", "/runner-rules", Map.of("runner_id", "r1"), null, true),
                new Kind("project", "/projects", Map.of("id", "shop", "name", "Shop"), "/projects/shop", false),
                new Kind(
                        "environment",
                        "/projects/shop/envs",
                        Map.of("id", "prod", "env_type_id", "production"),
                        "/projects/shop/envs/prod",
                        false));
    }

    @Test
    void aProtectedObjectOfEveryKindRefusesDeletionUntilItsProtectionIsLifted() {
        List<Kind> kinds = kinds();
        Map<String, String> paths = new HashMap<>();
        for (Kind kind : kinds) {
            Map<String, Object> body = new LinkedHashMap<>(kind.body());
            body.put("managed_by", "platform-config");
            body.put("protected", true);
            String id = admin().body(body)
                    .post(base() + kind.collection())
                    .then()
                    .statusCode(201)
                    .body("managed_by", equalTo("platform-config"))
                    .body("protected", equalTo(true))
                    .extract()
                    .path("id");
            paths.put(kind.name(), kind.rule() ? kind.collection() + "/" + id : kind.self());
        }
        List<Kind> newestFirst = new ArrayList<>(kinds);
        Collections.reverse(newestFirst);
        for (Kind kind : newestFirst) {
            String path = base() + paths.get(kind.name());
            problem(admin().delete(path), 409, "conflict").body("detail", containsString("is protected"));
            admin().get(path).then().statusCode(200).body("protected", equalTo(true));
            lift(kind, path);
            admin().get(path)
                    .then()
                    .statusCode(200)
                    .body("protected", equalTo(false))
                    .body("managed_by", equalTo("platform-config"));
            admin().delete(path).then().statusCode(204);
        }
    }

    /** Lifts the protection with the kind's own update, sending only what that update requires. */
    private void lift(Kind kind, String path) {
        Map<String, Object> body = new HashMap<>(Map.of("protected", false));
        switch (kind.name()) {
            case "provider" -> body.put("source", "hashicorp/aws");
            case "module" -> body.putAll(Map.of("module_source", "inline", "module_source_code", "# rds"));
            case "runner" ->
                body.put("public_key", RunnerKeys.toPem(RunnerDriver.newKeys().getPublic()));
            case "project" -> body.put("name", "Shop");
            case "environment" -> body.put("env_type_id", "production");
            default -> {}
        }
        RequestSpecification request = admin().body(body);
        (kind.rule() ? request.patch(path) : request.put(path))
                .then()
                .statusCode(200)
                .body("protected", equalTo(false));
    }

    @Test
    void anEmptyManagerClearsItAndABadOneIsNamed() {
        admin().body(Map.of("id", "production", "managed_by", "team-a"))
                .post(base() + "/env-types")
                .then()
                .statusCode(201);
        admin().body(Map.of("description", "Live"))
                .put(base() + "/env-types/production")
                .then()
                .statusCode(200)
                .body("managed_by", equalTo("team-a"))
                .body("protected", equalTo(false));
        admin().body(Map.of("managed_by", ""))
                .put(base() + "/env-types/production")
                .then()
                .statusCode(200)
                .body("managed_by", nullValue());
        problem(
                        admin().body(Map.of("id", "staging", "managed_by", "no spaces"))
                                .post(base() + "/env-types"),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/managed_by"));
        problem(
                admin().body(Map.of("protected", "yes please")).patch(base() + "/module-rules/" + UUID.randomUUID()),
                400,
                "validation");
    }

    @Test
    void aModuleUpdateThatChangesNothingMakesNoNewVersion() {
        admin().body(Map.of("id", "postgres"))
                .post(base() + "/resource-types")
                .then()
                .statusCode(201);
        Map<String, Object> module = Map.of(
                "id",
                "rds",
                "resource_type",
                "postgres",
                "module_source",
                "inline",
                "module_source_code",
                "variable \"size\" {}\nvariable \"password\" { sensitive = true }",
                "module_inputs",
                Map.of("size", "small"),
                "secret_inputs",
                Map.of("password", "s3cret"));
        admin().body(module).post(base() + "/modules").then().statusCode(201).body("version", equalTo(1));
        Map<String, Object> same = new HashMap<>(module);
        same.put("secret_inputs", Map.of("password", "***"));
        same.put("managed_by", "platform-config");
        admin().body(same)
                .put(base() + "/modules/rds")
                .then()
                .statusCode(200)
                .body("version", equalTo(1))
                .body("managed_by", equalTo("platform-config"));
        same.put("module_inputs", Map.of("size", "large"));
        admin().body(same).put(base() + "/modules/rds").then().statusCode(200).body("version", equalTo(2));
        same.put("secret_inputs", Map.of("password", "rotated"));
        admin().body(same).put(base() + "/modules/rds").then().statusCode(200).body("version", equalTo(3));
    }

    private String base() {
        return "/api/v1/orgs/" + org;
    }
}
