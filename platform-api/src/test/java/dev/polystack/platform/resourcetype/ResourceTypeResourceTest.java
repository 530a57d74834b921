package dev.polystack.platform.resourcetype;

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
import static org.hamcrest.Matchers.hasItem;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ResourceTypeResourceTest {

    private static final Map<String, Object> SCHEMA = Map.of(
            "type",
            "object",
            "required",
            java.util.List.of("host"),
            "properties",
            Map.of("host", Map.of("type", "string"), "port", Map.of("type", "integer")));

    @Test
    void createsAResourceTypeWithAnOutputSchema() {
        String org = createOrg();
        as(tokenFor(org, "platform-engineer"))
                .body(Map.of(
                        "id",
                        "postgres",
                        "description",
                        "PostgreSQL",
                        "output_schema",
                        SCHEMA,
                        "developer_accessible",
                        true))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201)
                .body("output_schema.properties.port.type", equalTo("integer"))
                .body("developer_accessible", equalTo(true));
    }

    @Test
    void defaultsToAnyObjectAndDeveloperAccessible() {
        String org = createOrg();
        admin().body(Map.of("id", "dns"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201)
                .body("output_schema.type", equalTo("object"))
                .body("developer_accessible", equalTo(true));
    }

    @Test
    void rejectsAnOutputSchemaThatIsNotAJsonSchema() {
        String org = createOrg();
        problem(
                        admin().body(Map.of(
                                        "id",
                                        "bad",
                                        "output_schema",
                                        Map.of(
                                                "type",
                                                "object",
                                                "properties",
                                                Map.of("port", Map.of("type", "integr")))))
                                .post("/api/v1/orgs/{org}/resource-types", org),
                        400,
                        "validation")
                .body("errors.pointer", hasItem("/output_schema/properties/port/type"));
        problem(
                        admin().body(Map.of("id", "bad", "output_schema", java.util.List.of(1)))
                                .post("/api/v1/orgs/{org}/resource-types", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/output_schema"));
    }

    @Test
    void refusesOutputSchemasThatWouldBreakJobResults() {
        String org = createOrg();
        problem(
                        admin().body(Map.of(
                                        "id",
                                        "loop",
                                        "output_schema",
                                        Map.of("type", "object", "properties", Map.of("child", Map.of("$ref", "#")))))
                                .post("/api/v1/orgs/{org}/resource-types", org),
                        422,
                        "unprocessable")
                .body("errors.pointer", hasItem("/output_schema/properties/child/$ref"));
        problem(
                        admin().body(Map.of(
                                        "id",
                                        "remote",
                                        "output_schema",
                                        Map.of("$ref", "https://example.com/schema.json")))
                                .post("/api/v1/orgs/{org}/resource-types", org),
                        422,
                        "unprocessable")
                .body("errors.pointer", hasItem("/output_schema/$ref"));
        Map<String, Object> deep = new java.util.HashMap<>();
        for (int i = 0; i < 450; i++) {
            deep = Map.of("properties", Map.of("a", deep));
        }
        problem(
                admin().body(Map.of("id", "deep", "output_schema", deep))
                        .post("/api/v1/orgs/{org}/resource-types", org),
                422,
                "unprocessable");
    }

    @Test
    void updatesWithOptimisticLockingAndRejectsBadSchemasOnUpdate() {
        String org = createOrg();
        admin().body(Map.of("id", "redis"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().header("If-Match", "\"0\"")
                .body(Map.of("output_schema", SCHEMA, "developer_accessible", false))
                .put("/api/v1/orgs/{org}/resource-types/redis", org)
                .then()
                .statusCode(200)
                .body("developer_accessible", equalTo(false));
        problem(
                admin().header("If-Match", "\"0\"")
                        .body(Map.of("output_schema", SCHEMA))
                        .put("/api/v1/orgs/{org}/resource-types/redis", org),
                409,
                "stale-version");
        problem(
                admin().body(Map.of("output_schema", Map.of("required", "host")))
                        .put("/api/v1/orgs/{org}/resource-types/redis", org),
                400,
                "validation");
    }

    @Test
    void aResourceTypeThatModulesUseCannotBeDeleted() {
        String org = createOrg();
        admin().body(Map.of("id", "redis"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "redis-basic",
                        "resource_type",
                        "redis",
                        "module_source",
                        "inline",
                        "module_source_code",
                        "output \"host\" { value = \"h\" }"))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        problem(admin().delete("/api/v1/orgs/{org}/resource-types/redis", org), 409, "in-use")
                .body("detail", equalTo("resource type `redis` is still used by modules redis-basic"));
    }

    @Test
    void rolesDuplicatesAndTenants() {
        String org = createOrg();
        admin().body(Map.of("id", "dns"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        problem(admin().body(Map.of("id", "dns")).post("/api/v1/orgs/{org}/resource-types", org), 409, "conflict");
        problem(
                as(tokenFor(org, "developer")).body(Map.of("id", "x")).post("/api/v1/orgs/{org}/resource-types", org),
                403,
                "forbidden");
        as(tokenFor(org, "viewer"))
                .get("/api/v1/orgs/{org}/resource-types/dns", org)
                .then()
                .statusCode(200);
        problem(as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/resource-types/dns", org), 404, "not-found");
    }
}
