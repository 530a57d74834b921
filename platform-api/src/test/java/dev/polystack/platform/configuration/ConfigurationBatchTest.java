package dev.polystack.platform.configuration;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/** Configuration changes made together or not at all, each with its own call's role and checks. */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ConfigurationBatchTest {

    private String org;

    @BeforeEach
    void organization() {
        org = createOrg();
    }

    private static Map<String, Object> change(String method, String path, Object body) {
        return body == null
                ? Map.of("method", method, "path", path)
                : Map.of("method", method, "path", path, "body", body);
    }

    private List<Map<String, Object>> platform() {
        return List.of(
                change("POST", "/env-types", Map.of("id", "production", "managed_by", "git")),
                change("POST", "/resource-types", Map.of("id", "postgres")),
                change(
                        "POST",
                        "/modules",
                        Map.of(
                                "id",
                                "rds",
                                "resource_type",
                                "postgres",
                                "module_source",
                                "inline",
                                "module_source_code",
                                "#")),
                change("POST", "/module-rules", Map.of("module_id", "rds", "env_type_id", "production")),
                change("POST", "/projects", Map.of("id", "shop", "name", "Shop")),
                change("POST", "/projects/shop/envs", Map.of("id", "prod", "env_type_id", "production")));
    }

    @Test
    void changesThatReferToEachOtherAreMadeTogether() {
        admin().body(Map.of("changes", platform()))
                .post("/api/v1/orgs/{org}/configuration/batch", org)
                .then()
                .statusCode(200)
                .body("results.status", equalTo(List.of(201, 201, 201, 201, 201, 201)))
                .body("results[0].body.managed_by", equalTo("git"))
                .body("results[5].body.env_type_id", equalTo("production"));
        admin().get("/api/v1/orgs/{org}/module-rules", org).then().body("items", hasSize(1));
        String rule = admin().get("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .extract()
                .path("items[0].id");
        // the audit log names each object as its own call would, besides the batch call itself
        admin().queryParam("action", "createEnvType")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .statusCode(200)
                .body("items.target", equalTo(List.of("/api/v1/orgs/" + org + "/env-types/production")))
                .body("items[0].status", equalTo(201));
        admin().queryParam("action", "createModuleRule")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items.target", equalTo(List.of("/api/v1/orgs/" + org + "/module-rules/" + rule)));
        admin().queryParam("action", "createEnvironment")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items.target", equalTo(List.of("/api/v1/orgs/" + org + "/projects/shop/envs/prod")));
        admin().body(Map.of(
                        "changes",
                        List.of(
                                change(
                                        "PUT",
                                        "/env-types/production",
                                        Map.of("description", "Live", "protected", true)),
                                change("PATCH", "/module-rules/" + rule, Map.of("protected", true)),
                                change("DELETE", "/projects/shop/envs/prod", null))))
                .post("/api/v1/orgs/{org}/configuration/batch", org)
                .then()
                .statusCode(422)
                .body("errors[0].pointer", equalTo("/changes/2/path"))
                .body("detail", containsString("an environment is deleted on its own"));
        admin().get("/api/v1/orgs/{org}/env-types/production", org).then().body("protected", equalTo(false));
    }

    @Test
    void oneFailingChangeMakesNoneAndIsPointedAt() {
        List<Map<String, Object>> changes = new java.util.ArrayList<>(platform());
        changes.set(3, change("POST", "/module-rules", Map.of("module_id", "no-such-module")));
        problem(
                        admin().body(Map.of("changes", changes)).post("/api/v1/orgs/{org}/configuration/batch", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/changes/3/body/module_id"))
                .body("detail", containsString("change 3 (POST /module-rules) failed, so the batch changed nothing"));
        admin().get("/api/v1/orgs/{org}/env-types", org).then().body("items", hasSize(0));
        admin().get("/api/v1/orgs/{org}/modules", org).then().body("items", hasSize(0));
        admin().queryParam("action", "createEnvType")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items", hasSize(0));

        changes.set(3, change("POST", "/module-rules", Map.of("module_id", "rds", "resource_class", "Not A Class")));
        problem(
                        admin().body(Map.of("changes", changes)).post("/api/v1/orgs/{org}/configuration/batch", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/changes/3/body/resource_class"));
        changes.set(3, change("POST", "/module-rules", Map.of("module_id", "rds", "colour", "blue")));
        problem(
                        admin().body(Map.of("changes", changes)).post("/api/v1/orgs/{org}/configuration/batch", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/changes/3/body/colour"));
        problem(
                        admin().body(Map.of("changes", List.of(change("GET", "/env-types", null))))
                                .post("/api/v1/orgs/{org}/configuration/batch", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/changes/0/method"));
        problem(
                admin().body(Map.of("changes", List.of())).post("/api/v1/orgs/{org}/configuration/batch", org),
                400,
                "validation");
        admin().get("/api/v1/orgs/{org}/resource-types", org).then().body("items", hasSize(0));
    }

    @Test
    void eachChangeNeedsTheRoleItsOwnCallNeeds() {
        String developer = tokenFor(org, "developer");
        problem(
                as(developer).body(Map.of("changes", platform())).post("/api/v1/orgs/{org}/configuration/batch", org),
                403,
                "forbidden");
        as(developer)
                .body(Map.of("changes", List.of(change("POST", "/projects", Map.of("id", "web", "name", "Web")))))
                .post("/api/v1/orgs/{org}/configuration/batch", org)
                .then()
                .statusCode(200);
        admin().get("/api/v1/orgs/{org}/env-types", org).then().body("items", hasSize(0));
    }
}
