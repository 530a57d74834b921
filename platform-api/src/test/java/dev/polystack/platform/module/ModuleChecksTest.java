package dev.polystack.platform.module;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

/** Modules are checked when they are saved, not when they first fail on a runner. */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ModuleChecksTest {

    private String org;

    @BeforeEach
    void organization() {
        org = createOrg();
        admin().body(Map.of(
                        "id",
                        "postgres",
                        "output_schema",
                        Map.of(
                                "type",
                                "object",
                                "required",
                                List.of("host"),
                                "properties",
                                Map.of("host", Map.of("type", "string"), "port", Map.of("type", "integer")))))
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
    }

    private static Map<String, Object> module(String code) {
        Map<String, Object> body = new HashMap<>();
        body.put("id", "rds");
        body.put("resource_type", "postgres");
        body.put("module_source", "inline");
        body.put("module_source_code", code);
        return body;
    }

    @Test
    void aSyntaxErrorIsRefusedWithItsLineAndColumn() {
        problem(
                        admin().body(
                                        module(
                                                "variable \"name\" {\n  type = string\n\noutput \"host\" {\n  value = \"x\"\n}\n"))
                                .post("/api/v1/orgs/{org}/modules", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/module_source_code"))
                .body("errors[0].line", equalTo(1))
                .body("errors[0].column", equalTo(1))
                .body("errors[0].detail", containsString("Unclosed configuration block"));
        problem(
                        admin().body(module("output \"host\" {\n  value = \"x\n}\n"))
                                .post("/api/v1/orgs/{org}/modules", org),
                        422,
                        "unprocessable")
                .body("errors[0].line", equalTo(2))
                .body("detail", containsString("line 2"));
    }

    @Test
    void reservedVariableNamesAreRefused() {
        problem(
                        admin().body(module("variable \"version\" {}\noutput \"host\" { value = \"x\" }\n"))
                                .post("/api/v1/orgs/{org}/modules", org),
                        422,
                        "unprocessable")
                .body("errors[0].detail", containsString("`version` is reserved"));
    }

    @Test
    void inputsParamsAndSecretsMustNameVariablesOfTheModule() {
        Map<String, Object> body = module("variable \"name\" {}\noutput \"host\" { value = var.name }\n");
        body.put("module_inputs", Map.of("name", "x", "nmae", "y"));
        problem(admin().body(body).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].pointer", equalTo("/module_inputs/nmae"))
                .body("errors[0].detail", containsString("the module has no variable `nmae`"));
        body.put("module_inputs", Map.of());
        body.put(
                "module_params",
                Map.of("name", Map.of("type", "string"), "size", Map.of("type", "number", "is_optional", true)));
        problem(admin().body(body).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].pointer", equalTo("/module_params/size"));
        body.put("module_params", Map.of());
        body.put("secret_inputs", Map.of("password", "s3cret-value"));
        problem(admin().body(body).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors.pointer", hasItems("/secret_inputs/password", "/module_source_code"))
                .body("detail", containsString("`name` has no default"));
    }

    @Test
    void aModuleMustHaveTheOutputsItsResourceTypeRequires() {
        problem(
                        admin().body(module("output \"port\" { value = 5432 }\n"))
                                .post("/api/v1/orgs/{org}/modules", org),
                        422,
                        "unprocessable")
                .body("errors[0].detail", containsString("resource type `postgres` requires output `host`"));
    }

    @Test
    void aModuleInputMayOnlyReferToOutputsTheDependencysTypeDeclares() {
        Map<String, Object> body = module("variable \"subnet\" {}\noutput \"host\" { value = var.subnet }\n");
        body.put("dependencies", Map.of("net", Map.of("type", "vpc", "id", "shared.vpc")));
        body.put("module_inputs", Map.of("subnet", "${resources.net.outputs.subnet}"));
        problem(admin().body(body).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].pointer", equalTo("/module_inputs/subnet"))
                .body("errors[0].detail", containsString("resource type `vpc` declares no output `subnet`"));
        body.put("module_inputs", Map.of("subnet", "${resources.net.outputs.subnet_id[0]}"));
        problem(admin().body(body).post("/api/v1/orgs/{org}/modules", org), 422, "unprocessable")
                .body("errors[0].detail", containsString("is a string, not a list"));
        body.put("module_inputs", Map.of("subnet", "${resources.net.outputs.subnet_id}"));
        admin().body(body).post("/api/v1/orgs/{org}/modules", org).then().statusCode(201);
    }

    @Test
    void versionsListTheVariablesAndOutputsTheCodeDeclares() {
        Map<String, Object> body = module(
                "variable \"name\" {\n  type = string\n}\nvariable \"size\" {\n  default = 1\n}\n"
                        + "output \"host\" { value = var.name }\noutput \"password\" {\n  value     = \"x\"\n  sensitive = true\n}\n");
        body.put("module_inputs", Map.of("name", "${context.res_id}"));
        admin().body(body)
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201)
                .body("module_interface.checked", equalTo(true))
                .body("module_interface.variables.find { it.name == 'name' }.type", equalTo("string"))
                .body("module_interface.variables.find { it.name == 'name' }.required", equalTo(true))
                .body("module_interface.variables.find { it.name == 'size' }.required", equalTo(false))
                .body("module_interface.outputs.find { it.name == 'password' }.sensitive", equalTo(true));
        admin().get("/api/v1/orgs/{org}/modules/rds/versions/1", org)
                .then()
                .statusCode(200)
                .body("module_interface.outputs.name", hasItems("host", "password"));
    }

    @Test
    void aGitSourceIsSavedAndSaysItWasNotChecked() {
        Map<String, Object> body = module(null);
        body.remove("module_source_code");
        body.put("module_source", "git::https://example.test/modules.git//postgres?ref=v1");
        admin().body(body)
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201)
                .body("module_interface.checked", equalTo(false))
                .body("module_interface.note", containsString("not checked"));
    }
}
