package dev.polystack.platform.environment;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class EnvironmentResourceTest {

    private String org;

    @BeforeEach
    void organization() {
        org = createOrg();
        admin().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "development"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "production"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
    }

    @Test
    void developersCreateChangeAndDeleteEnvironments() {
        String dev = tokenFor(org, "developer");
        as(dev).body(Map.of("id", "prod", "env_type_id", "development"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201)
                .body("project_id", equalTo("shop"))
                .body("env_type_id", equalTo("development"))
                .body("status", equalTo("active"));
        as(dev).header("If-Match", "\"0\"")
                .body(Map.of("env_type_id", "production"))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod", org)
                .then()
                .statusCode(200)
                .body("env_type_id", equalTo("production"));
        as(dev).get("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(200)
                .body("items[0].id", equalTo("prod"));
        as(dev).delete("/api/v1/orgs/{org}/projects/shop/envs/prod", org).then().statusCode(204);
        problem(as(dev).get("/api/v1/orgs/{org}/projects/shop/envs/prod", org), 404, "not-found")
                .body("detail", equalTo("environment `shop/prod` does not exist"));
    }

    @Test
    void anUnknownEnvironmentTypeIsUnprocessable() {
        problem(
                        admin().body(Map.of("id", "prod", "env_type_id", "nope"))
                                .post("/api/v1/orgs/{org}/projects/shop/envs", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/env_type_id"))
                .body("detail", equalTo("/env_type_id: environment type `nope` does not exist"));
    }

    @Test
    void anUnknownProjectIsNotFound() {
        problem(
                        admin().body(Map.of("id", "prod", "env_type_id", "production"))
                                .post("/api/v1/orgs/{org}/projects/none/envs", org),
                        404,
                        "not-found")
                .body("detail", equalTo("project `none` does not exist"));
    }

    @Test
    void conflictsAndStaleVersions() {
        admin().body(Map.of("id", "prod", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201);
        problem(
                admin().body(Map.of("id", "prod", "env_type_id", "production"))
                        .post("/api/v1/orgs/{org}/projects/shop/envs", org),
                409,
                "conflict");
        problem(
                admin().header("If-Match", "\"7\"")
                        .body(Map.of("env_type_id", "development"))
                        .put("/api/v1/orgs/{org}/projects/shop/envs/prod", org),
                409,
                "stale-version");
        problem(
                admin().header("If-Match", "seven")
                        .body(Map.of("env_type_id", "development"))
                        .put("/api/v1/orgs/{org}/projects/shop/envs/prod", org),
                400,
                "validation");
    }

    @Test
    void viewersAndOtherTenants() {
        admin().body(Map.of("id", "prod", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201);
        problem(
                as(tokenFor(org, "viewer"))
                        .body(Map.of("id", "x", "env_type_id", "production"))
                        .post("/api/v1/orgs/{org}/projects/shop/envs", org),
                403,
                "forbidden");
        problem(
                as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/projects/shop/envs/prod", org),
                404,
                "not-found");
    }
}
