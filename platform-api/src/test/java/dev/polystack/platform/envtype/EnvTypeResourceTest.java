package dev.polystack.platform.envtype;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class EnvTypeResourceTest {

    @Test
    void platformEngineersManageEnvironmentTypes() {
        String org = createOrg();
        String pe = tokenFor(org, "platform-engineer");
        as(pe).body(Map.of("id", "production", "description", "Live traffic"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201)
                .body("description", equalTo("Live traffic"));
        as(pe).body(Map.of("description", "Customers", "version", 0))
                .put("/api/v1/orgs/{org}/env-types/production", org)
                .then()
                .statusCode(200)
                .body("description", equalTo("Customers"));
        problem(
                as(pe).body(Map.of("description", "Old", "version", 0))
                        .put("/api/v1/orgs/{org}/env-types/production", org),
                409,
                "stale-version");
        as(pe).delete("/api/v1/orgs/{org}/env-types/production", org).then().statusCode(204);
    }

    @Test
    void developersOnlyRead() {
        String org = createOrg();
        admin().body(Map.of("id", "staging"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        String dev = tokenFor(org, "developer");
        as(dev).get("/api/v1/orgs/{org}/env-types/staging", org).then().statusCode(200);
        problem(as(dev).body(Map.of("id", "x")).post("/api/v1/orgs/{org}/env-types", org), 403, "forbidden");
        problem(as(dev).delete("/api/v1/orgs/{org}/env-types/staging", org), 403, "forbidden");
    }

    @Test
    void anEnvironmentTypeInUseCannotBeDeleted() {
        String org = createOrg();
        admin().body(Map.of("id", "staging"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "stg", "env_type_id", "staging"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201);
        problem(admin().delete("/api/v1/orgs/{org}/env-types/staging", org), 409, "in-use")
                .body("detail", startsWith("environment type `staging` is still used by environments shop/stg"));
    }

    @Test
    void validatesDuplicatesAndTenants() {
        String org = createOrg();
        admin().body(Map.of("id", "dev"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        problem(admin().body(Map.of("id", "dev")).post("/api/v1/orgs/{org}/env-types", org), 409, "conflict");
        problem(admin().body(Map.of("id", "DEV")).post("/api/v1/orgs/{org}/env-types", org), 400, "validation");
        problem(as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/env-types/dev", org), 404, "not-found");
        problem(admin().get("/api/v1/orgs/{org}/env-types/none", org), 404, "not-found");
    }
}
