package dev.polystack.platform.runner;

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
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class RunnerRuleResourceTest {

    private String org;

    @BeforeEach
    void organization() throws Exception {
        org = createOrg();
        admin().body(Map.of("id", "eu", "public_key", RunnerResourceTest.publicKey("Ed25519")))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "postgres"))
                .post("/api/v1/orgs/{org}/resource-types", org)
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
    }

    @Test
    void createsListsAndDeletesRunnerRules() {
        String pe = tokenFor(org, "platform-engineer");
        String id = as(pe).body(Map.of(
                        "runner_id",
                        "eu",
                        "env_type_id",
                        "production",
                        "resource_type",
                        "postgres",
                        "resource_class",
                        "ha"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201)
                .body("runner_id", equalTo("eu"))
                .body("resource_type", equalTo("postgres"))
                .extract()
                .path("id");
        as(pe).queryParam("runner_id", "eu")
                .get("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(200)
                .body("items", hasSize(1));
        as(pe).get("/api/v1/orgs/{org}/runner-rules/{id}", org, id)
                .then()
                .statusCode(200)
                .body("resource_class", equalTo("ha"));
        as(pe).delete("/api/v1/orgs/{org}/runner-rules/{id}", org, id).then().statusCode(204);
        problem(as(pe).get("/api/v1/orgs/{org}/runner-rules/{id}", org, id), 404, "not-found");
    }

    @Test
    void rulesOfDifferentResourceTypesNeverTieButTwoForEveryTypeDo() {
        admin().body(Map.of("id", "vpc"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("runner_id", "eu", "resource_type", "postgres"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("runner_id", "eu", "resource_type", "vpc"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("runner_id", "eu"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201);
        problem(
                admin().body(Map.of("runner_id", "eu", "resource_type", "vpc"))
                        .post("/api/v1/orgs/{org}/runner-rules", org),
                409,
                "conflict");
        problem(admin().body(Map.of("runner_id", "eu")).post("/api/v1/orgs/{org}/runner-rules", org), 409, "conflict");
    }

    @Test
    void referencesMustExistAndCriteriaMustBeUnique() {
        problem(
                        admin().body(Map.of("runner_id", "nope")).post("/api/v1/orgs/{org}/runner-rules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/runner_id"));
        problem(
                        admin().body(Map.of("runner_id", "eu", "resource_type", "nope"))
                                .post("/api/v1/orgs/{org}/runner-rules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/resource_type"));
        problem(
                        admin().body(Map.of("runner_id", "eu", "project_id", "nope"))
                                .post("/api/v1/orgs/{org}/runner-rules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/project_id"));
        admin().body(Map.of("runner_id", "eu", "project_id", "shop"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("runner_id", "eu", "project_id", "shop"))
                                .post("/api/v1/orgs/{org}/runner-rules", org),
                        409,
                        "conflict")
                .body("detail", containsString("same criteria"));
        problem(
                        admin().body(Map.of("runner_id", "eu", "resource_class", "Not Valid"))
                                .post("/api/v1/orgs/{org}/runner-rules", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/resource_class"));
    }

    @Test
    void rolesAndTenants() {
        problem(
                as(tokenFor(org, "developer"))
                        .body(Map.of("runner_id", "eu"))
                        .post("/api/v1/orgs/{org}/runner-rules", org),
                403,
                "forbidden");
        String id = admin().body(Map.of("runner_id", "eu"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        problem(
                as(tokenFor(createOrg(), "owner")).delete("/api/v1/orgs/{org}/runner-rules/{id}", org, id),
                404,
                "not-found");
    }
}
