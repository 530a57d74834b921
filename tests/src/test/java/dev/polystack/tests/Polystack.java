package dev.polystack.tests;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The control plane's API as the tests use it: an administrator's calls against one base URL. */
final class Polystack {

    private final String url;
    private final String token;

    Polystack(String url, String token) {
        this.url = url;
        this.token = token;
    }

    String baseUrl() {
        return url;
    }

    RequestSpecification api() {
        return RestAssured.given()
                .baseUri(url)
                .auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .accept(ContentType.JSON);
    }

    /** Organization acme, env type production, project shop, resource type thing and its module with a rule. */
    void configure(String module, Map<String, Object> params) {
        configure(
                "thing",
                Map.of(
                        "type",
                        "object",
                        "required",
                        List.of("name"),
                        "properties",
                        Map.of("name", Map.of("type", "string"))),
                module,
                params,
                Map.of("name", "${context.env_id}-${context.res_id}"));
    }

    /**
     * The fixture every end-to-end test starts from: organization acme, env type production, project shop, resource
     * type {@code type} (with {@code outputSchema}, or none when null) and its module of the same name ({@code module}
     * with {@code params} and {@code inputs}), chosen by a rule without criteria.
     */
    void configure(
            String type,
            Map<String, Object> outputSchema,
            String module,
            Map<String, Object> params,
            Map<String, Object> inputs) {
        organization();
        api().body(outputSchema == null ? Map.of("id", type) : Map.of("id", type, "output_schema", outputSchema))
                .post("/api/v1/orgs/acme/resource-types")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        api().body(Map.of(
                        "id",
                        type,
                        "resource_type",
                        type,
                        "module_source",
                        "inline",
                        "module_source_code",
                        module,
                        "module_params",
                        params,
                        "module_inputs",
                        inputs))
                .post("/api/v1/orgs/acme/modules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        api().body(Map.of("module_id", type))
                .post("/api/v1/orgs/acme/module-rules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }

    /** Organization acme with env type production and project shop, nothing else. */
    void organization() {
        api().body(Map.of("id", "acme", "name", "Acme"))
                .post("/api/v1/orgs")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        api().body(Map.of("id", "production"))
                .post("/api/v1/orgs/acme/env-types")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        api().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/acme/projects")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }

    void environment(String env) {
        api().body(Map.of("id", env, "env_type_id", "production"))
                .post("/api/v1/orgs/acme/projects/shop/envs")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }

    void runner(String id, String publicKey, int slots) {
        api().body(Map.of("id", id, "public_key", publicKey, "max_concurrent_jobs", slots))
                .post("/api/v1/orgs/acme/runners")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }

    void runnerRule(String runner) {
        api().body(Map.of("runner_id", runner))
                .post("/api/v1/orgs/acme/runner-rules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }

    void manifest(String env, String yaml) {
        api().contentType("application/yaml")
                .body(yaml.getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/acme/projects/shop/envs/{env}/manifest", env)
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
    }

    String deploy(String env) {
        return deploy(env, Map.of("mode", "deploy"));
    }

    /** Creates a deployment with {@code body} (mode, force, target…); its id. */
    String deploy(String env, Map<String, Object> body) {
        return api().body(body)
                .post("/api/v1/orgs/acme/projects/shop/envs/{env}/deployments", env)
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201)
                .extract()
                .path("id");
    }

    Map<String, Object> deployment(String env, String id) {
        return api().get("/api/v1/orgs/acme/projects/shop/envs/{env}/deployments/{id}", env, id)
                .then()
                .log()
                .ifValidationFails()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("");
    }

    /** Resource id → node status of a deployment. */
    @SuppressWarnings("unchecked")
    Map<String, String> nodeStatuses(String env, String id) {
        Map<String, String> statuses = new TreeMap<>();
        ((List<Map<String, Object>>) deployment(env, id).get("nodes"))
                .forEach(n -> statuses.put((String) n.get("id"), (String) n.get("status")));
        return statuses;
    }

    /** The deployment's nodes with their status and error, for failure messages. */
    @SuppressWarnings("unchecked")
    String describe(String env, String id) {
        Map<String, Object> deployment = deployment(env, id);
        StringBuilder text = new StringBuilder(
                "deployment " + id + " " + deployment.get("status") + " (" + deployment.get("error") + "):");
        for (Map<String, Object> node : (List<Map<String, Object>>) deployment.get("nodes")) {
            text.append("\n  ")
                    .append(node.get("id"))
                    .append(' ')
                    .append(node.get("status"))
                    .append(" attempt ")
                    .append(node.get("attempt"))
                    .append(node.get("error") == null ? "" : ": " + node.get("error"));
        }
        return text.toString();
    }

    /** Long-polls until the deployment ends; its final status. */
    String await(String env, String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String status = api().queryParam("timeout", "20s")
                    .get("/api/v1/orgs/acme/projects/shop/envs/{env}/deployments/{id}/wait", env, id)
                    .then()
                    .log()
                    .ifValidationFails()
                    .statusCode(200)
                    .extract()
                    .path("status");
            if (!status.equals("queued") && !status.equals("running")) {
                return status;
            }
        }
        throw new AssertionError("deployment " + id + " of " + env + " did not end within " + timeout);
    }
}
