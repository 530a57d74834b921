package dev.polystack.platform.module;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ModuleResourceTest {

    private String org;

    @BeforeEach
    void organization() {
        org = createOrg();
        admin().body(Map.of("id", "postgres"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "vpc",
                        "output_schema",
                        Map.of("type", "object", "properties", Map.of("subnet_id", Map.of("type", "string")))))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("provider_type", "aws", "id", "default", "source", "hashicorp/aws"))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
    }

    private static final String CODE = """
            variable "name" {}
            variable "subnet" {}
            variable "engine_version" {
              default = "16"
            }
            """;

    private static Map<String, Object> module(String id) {
        Map<String, Object> body = new HashMap<>();
        body.put("id", id);
        body.put("resource_type", "postgres");
        body.put("module_source", "inline");
        body.put("module_source_code", CODE);
        body.put("module_params", Map.of("engine_version", Map.of("type", "string", "is_optional", true)));
        body.put(
                "module_inputs",
                Map.of("name", "${context.env_id}-${context.res_id}", "subnet", "${resources.net.outputs.subnet_id}"));
        body.put("provider_mapping", Map.of("aws", "aws.default"));
        body.put("dependencies", Map.of("net", Map.of("type", "vpc", "class", "default", "id", "shared.vpc")));
        return body;
    }

    @Test
    void everyChangeMakesANewImmutableVersion() {
        String pe = tokenFor(org, "platform-engineer");
        as(pe).body(module("postgres-rds"))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201)
                .header("ETag", "\"1\"")
                .body("version", equalTo(1))
                .body("module_params.engine_version.is_optional", equalTo(true))
                .body("dependencies.net.class", equalTo("default"));
        Map<String, Object> changed = module("postgres-rds");
        changed.put("module_source_code", CODE + "variable \"size\" {\n  default = 1\n}\n");
        changed.put("version", 1);
        as(pe).body(changed)
                .put("/api/v1/orgs/{org}/modules/postgres-rds", org)
                .then()
                .statusCode(200)
                .body("version", equalTo(2));
        problem(as(pe).body(changed).put("/api/v1/orgs/{org}/modules/postgres-rds", org), 409, "stale-version");
        as(pe).get("/api/v1/orgs/{org}/modules/postgres-rds/versions", org)
                .then()
                .statusCode(200)
                .body("items.version", contains(2, 1));
        as(pe).get("/api/v1/orgs/{org}/modules/postgres-rds/versions/1", org)
                .then()
                .statusCode(200)
                .body("module_source_code", equalTo(CODE));
        problem(as(pe).get("/api/v1/orgs/{org}/modules/postgres-rds/versions/9", org), 404, "not-found");
    }

    @Test
    void inlineModulesNeedTheirCodeAndOthersMustNotCarryIt() {
        Map<String, Object> noCode = module("a");
        noCode.remove("module_source_code");
        problem(admin().body(noCode).post("/api/v1/orgs/{org}/modules", org), 400, "validation")
                .body("errors[0].pointer", equalTo("/module_source_code"));
        Map<String, Object> remote = module("b");
        remote.put("module_source", "git::https://example.test/modules.git//postgres?ref=v1");
        problem(admin().body(remote).post("/api/v1/orgs/{org}/modules", org), 400, "validation")
                .body("errors[0].pointer", equalTo("/module_source_code"));
        remote.remove("module_source_code");
        admin().body(remote).post("/api/v1/orgs/{org}/modules", org).then().statusCode(201);
    }

    @Test
    void referencesMustExist() {
        Map<String, Object> badType = module("a");
        badType.put("resource_type", "nope");
        problem(admin().body(badType).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].pointer", equalTo("/resource_type"));
        Map<String, Object> badProvider = module("b");
        badProvider.put("provider_mapping", Map.of("aws", "aws.missing"));
        problem(admin().body(badProvider).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].pointer", equalTo("/provider_mapping/aws"));
        Map<String, Object> badDependency = module("c");
        badDependency.put("dependencies", Map.of("net", Map.of("type", "subnet")));
        problem(admin().body(badDependency).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].pointer", equalTo("/dependencies/net/type"));
    }

    @Test
    void validatesParamsAndNames() {
        Map<String, Object> badParam = module("a");
        badParam.put("module_params", Map.of("engine_version", Map.of("type", "text")));
        problem(admin().body(badParam).post("/api/v1/orgs/{org}/modules", org), 400, "validation")
                .body("errors[0].pointer", equalTo("/module_params/engine_version/type"));
        Map<String, Object> badMapping = module("b");
        badMapping.put("provider_mapping", Map.of("aws", "just-a-name"));
        problem(admin().body(badMapping).post("/api/v1/orgs/{org}/modules", org), 400, "validation");
    }

    @Test
    void placeholdersInInputsAreCheckedByTheRulesEngine() {
        Map<String, Object> badRoot = module("a");
        badRoot.put("module_inputs", Map.of("name", "${env.HOME}"));
        problem(admin().body(badRoot).post("/api/v1/orgs/{org}/modules", org), 400, "validation")
                .body("errors[0].pointer", equalTo("/module_inputs/name"))
                .body("errors[0].detail", containsString("unknown reference root `env`"));
        Map<String, Object> unclosed = module("b");
        unclosed.put("module_inputs", Map.of("name", "x-${context.env_id"));
        problem(admin().body(unclosed).post("/api/v1/orgs/{org}/modules", org), 400, "validation")
                .body("errors[0].detail", containsString("unclosed placeholder"));
        Map<String, Object> undeclared = module("c");
        undeclared.put("module_inputs", Map.of("subnet", "${resources.other.outputs.id}"));
        problem(admin().body(undeclared).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].detail", containsString("names no dependency"));
        Map<String, Object> overlap = module("d");
        overlap.put("module_params", Map.of("name", Map.of("type", "string")));
        problem(admin().body(overlap).post("/api/v1/orgs/{org}/modules", org), 400, "validation")
                .body("errors[0].pointer", equalTo("/module_params/name"));
    }

    @Test
    void theResourceTypeOfAModuleCannotChange() {
        admin().body(module("m")).post("/api/v1/orgs/{org}/modules", org).then().statusCode(201);
        Map<String, Object> changed = module("m");
        changed.put("resource_type", "vpc");
        problem(admin().body(changed).put("/api/v1/orgs/{org}/modules/m", org), 400, "validation")
                .body("errors[0].pointer", equalTo("/resource_type"));
    }

    @Test
    void aModuleThatRulesUseCannotBeDeletedAndOthersCan() {
        admin().body(module("used"))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        String rule = admin().body(Map.of("module_id", "used"))
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        problem(admin().delete("/api/v1/orgs/{org}/modules/used", org), 409, "in-use")
                .body("detail", equalTo("module `used` is still used by module rules " + rule));
        admin().delete("/api/v1/orgs/{org}/module-rules/{id}", org, rule).then().statusCode(204);
        admin().delete("/api/v1/orgs/{org}/modules/used", org).then().statusCode(204);
    }

    @Test
    void rolesDuplicatesAndTenants() {
        admin().body(module("m")).post("/api/v1/orgs/{org}/modules", org).then().statusCode(201);
        problem(admin().body(module("m")).post("/api/v1/orgs/{org}/modules", org), 409, "conflict");
        problem(
                as(tokenFor(org, "developer")).body(module("n")).post("/api/v1/orgs/{org}/modules", org),
                403,
                "forbidden");
        as(tokenFor(org, "viewer"))
                .get("/api/v1/orgs/{org}/modules/m", org)
                .then()
                .statusCode(200);
        problem(as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/modules/m/versions", org), 404, "not-found");
    }
}
