package dev.polystack.platform.module;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ModuleRuleResourceTest {

    private String org;

    @BeforeEach
    void organization() {
        org = createOrg();
        admin().body(Map.of("id", "postgres"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id", "rds", "resource_type", "postgres", "module_source", "inline", "module_source_code", "#"))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "production"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "prod", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201);
    }

    @Test
    void createsReadsListsAndDeletesRules() {
        String pe = tokenFor(org, "platform-engineer");
        String id = as(pe).body(Map.of("module_id", "rds", "env_type_id", "production", "resource_class", "ha"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201)
                .body("module_id", equalTo("rds"))
                .body("env_type_id", equalTo("production"))
                .body("resource_class", equalTo("ha"))
                .extract()
                .path("id");
        as(pe).body(Map.of("module_id", "rds", "project_id", "shop", "env_id", "prod"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201)
                .body("env_id", equalTo("prod"));
        as(pe).get("/api/v1/orgs/{org}/module-rules/{id}", org, id)
                .then()
                .statusCode(200)
                .body("id", equalTo(id));
        as(pe).queryParam("module_id", "rds")
                .get("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(200)
                .body("items", hasSize(2));
        as(pe).delete("/api/v1/orgs/{org}/module-rules/{id}", org, id).then().statusCode(204);
        problem(as(pe).get("/api/v1/orgs/{org}/module-rules/{id}", org, id), 404, "not-found");
    }

    @Test
    void rulesOfDifferentResourceTypesNeverTie() {
        admin().body(Map.of("id", "vpc"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "vpc-basic",
                        "resource_type",
                        "vpc",
                        "module_source",
                        "inline",
                        "module_source_code",
                        "#"))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "rds-two",
                        "resource_type",
                        "postgres",
                        "module_source",
                        "inline",
                        "module_source_code",
                        "#"))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        // one catch-all rule per resource type: the most common configuration there is
        admin().body(Map.of("module_id", "rds"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("module_id", "vpc-basic"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201);
        // a second catch-all of the same type would always tie with the first
        problem(
                        admin().body(Map.of("module_id", "rds-two")).post("/api/v1/orgs/{org}/module-rules", org),
                        409,
                        "conflict")
                .body("detail", containsString("module `rds`"));
    }

    @Test
    void anEnvironmentAndAnEnvironmentTypeAreNeverBothSet() {
        problem(
                        admin().body(Map.of(
                                        "module_id",
                                        "rds",
                                        "env_type_id",
                                        "production",
                                        "project_id",
                                        "shop",
                                        "env_id",
                                        "prod"))
                                .post("/api/v1/orgs/{org}/module-rules", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/env_id"));
    }

    @Test
    void anEnvironmentNeedsItsProject() {
        problem(
                        admin().body(Map.of("module_id", "rds", "env_id", "prod"))
                                .post("/api/v1/orgs/{org}/module-rules", org),
                        400,
                        "validation")
                .body("detail", containsString("needs project_id"));
    }

    @Test
    void referencesMustExist() {
        problem(
                        admin().body(Map.of("module_id", "nope")).post("/api/v1/orgs/{org}/module-rules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/module_id"));
        problem(
                        admin().body(Map.of("module_id", "rds", "env_type_id", "nope"))
                                .post("/api/v1/orgs/{org}/module-rules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/env_type_id"));
        problem(
                        admin().body(Map.of("module_id", "rds", "project_id", "shop", "env_id", "nope"))
                                .post("/api/v1/orgs/{org}/module-rules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/env_id"));
    }

    @Test
    void twoRulesWithTheSameCriteriaAreRefused() {
        admin().body(Map.of("module_id", "rds", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("module_id", "rds", "env_type_id", "production"))
                                .post("/api/v1/orgs/{org}/module-rules", org),
                        409,
                        "conflict")
                .body("detail", containsString("same criteria"));
    }

    @Test
    void rolesAndTenants() {
        problem(
                as(tokenFor(org, "developer"))
                        .body(Map.of("module_id", "rds"))
                        .post("/api/v1/orgs/{org}/module-rules", org),
                403,
                "forbidden");
        String id = admin().body(Map.of("module_id", "rds"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String stranger = tokenFor(createOrg(), "owner");
        problem(as(stranger).get("/api/v1/orgs/{org}/module-rules/{id}", org, id), 404, "not-found");
        problem(as(stranger).delete("/api/v1/orgs/{org}/module-rules/{id}", org, id), 404, "not-found");
        problem(
                admin().get(
                                "/api/v1/orgs/{org}/module-rules/{id}",
                                org,
                                UUID.randomUUID().toString()),
                404,
                "not-found");
    }
}
