package dev.polystack.platform.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.runner.RunnerKeys;
import dev.polystack.platform.testing.RunnerDriver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static dev.polystack.platform.fuzz.Limits.JSON;
import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.uniqueId;

/** Two organizations: one whose manifests are fuzzed, one whose configuration is. */
final class World {
    final int port;
    final String manifestOrg = uniqueId("fuzz-m");
    final String jsonOrg = uniqueId("fuzz-j");
    final String member = uniqueId("member");
    final Map<String, String> ruleIds = new ConcurrentHashMap<>();
    final String runnerJwt;
    final String publicKey;
    final List<Operation> operations;
    final JsonNode openapi;

    World(int port) {
        this.port = port;
        for (String org : List.of(manifestOrg, jsonOrg)) {
            admin().body(Map.of("id", org, "name", "Fuzz " + org))
                    .post("/api/v1/orgs")
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
            admin().body(Map.of(
                            "id",
                            "thing",
                            "developer_accessible",
                            true,
                            "output_schema",
                            Map.of(
                                    "type",
                                    "object",
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
            admin().body(Map.of("provider_type", "null", "id", "default", "source", "hashicorp/null"))
                    .post("/api/v1/orgs/{org}/providers", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of(
                            "id",
                            "thing-basic",
                            "resource_type",
                            "thing",
                            "module_source",
                            "inline",
                            "module_source_code",
                            "variable \"name\" { type = string }\nvariable \"engine_version\" {\n  default = \"16\"\n}\n"
                                    + "variable \"size\" {\n  default = 1\n}\noutput \"host\" { value = var.name }\n",
                            "module_params",
                            Map.of(
                                    "engine_version",
                                    Map.of("type", "string", "is_optional", true),
                                    "size",
                                    Map.of("type", "number", "is_optional", true)),
                            "module_inputs",
                            Map.of("name", "${context.env_id}-${context.res_id}")))
                    .post("/api/v1/orgs/{org}/modules", org)
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
                            "output \"subnet_id\" { value = \"subnet-1\" }\n"))
                    .post("/api/v1/orgs/{org}/modules", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of("module_id", "vpc-basic"))
                    .post("/api/v1/orgs/{org}/module-rules", org)
                    .then()
                    .statusCode(201);
            ruleIds.put(
                    org + "/module",
                    admin().body(Map.of("module_id", "thing-basic", "env_type_id", "production"))
                            .post("/api/v1/orgs/{org}/module-rules", org)
                            .then()
                            .statusCode(201)
                            .extract()
                            .path("id"));
        }
        RunnerDriver.register(manifestOrg, "r1", 4);
        admin().body(Map.of("runner_id", "r1"))
                .post("/api/v1/orgs/{org}/runner-rules", manifestOrg)
                .then()
                .statusCode(201);
        RunnerDriver runner = RunnerDriver.register(jsonOrg, "r1", 4);
        ruleIds.put(
                jsonOrg + "/runner",
                admin().body(Map.of("runner_id", "r1"))
                        .post("/api/v1/orgs/{org}/runner-rules", jsonOrg)
                        .then()
                        .statusCode(201)
                        .extract()
                        .path("id"));
        runnerJwt = runner.jwt(0, 300, "polystack", runner.privateKey(), "r1");
        publicKey = RunnerKeys.toPem(RunnerDriver.newKeys().getPublic());
        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", jsonOrg)
                .then()
                .statusCode(201);
        admin().body(Map.of("username", member, "role", "viewer"))
                .post("/api/v1/orgs/{org}/members", jsonOrg)
                .then()
                .statusCode(201);
        admin().contentType("application/yaml")
                .body("shared:\n  net: { type: vpc }\n".getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", jsonOrg)
                .then()
                .statusCode(201);
        // a valid manifest passes, so the generated valid ones can too
        admin().contentType("application/yaml")
                .body(
                        ("workloads:\n  api:\n    resources:\n      db: { type: thing, params: { engine_version: \"16\" } }\n"
                                        + "    outputs:\n      host: ${resources.db.outputs.host}\nshared:\n  net: { type: vpc }\n")
                                .getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", manifestOrg)
                .then()
                .statusCode(201);

        Resp document = Http.send(
                port,
                Req.get("/q/openapi?format=json")
                        .header("Accept", "application/json")
                        .build());
        try {
            openapi = JSON.readTree(document.body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        List<Operation> ops = new ArrayList<>();
        openapi.path("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
                    JsonNode op = method.getValue();
                    if (!op.has("operationId")) {
                        return;
                    }
                    List<String> query = new ArrayList<>();
                    op.path("parameters").forEach(p -> {
                        if ("query".equals(p.path("in").asText())) {
                            query.add(p.path("name").asText());
                        }
                    });
                    JsonNode content = op.path("requestBody").path("content");
                    JsonNode schema = content.path("application/json").path("schema");
                    List<String> mediaTypes = new ArrayList<>();
                    content.fieldNames().forEachRemaining(mediaTypes::add);
                    ops.add(new Operation(
                            method.getKey().toUpperCase(Locale.ROOT),
                            path.getKey(),
                            op.path("operationId").asText(),
                            query,
                            mediaTypes,
                            schema.isMissingNode() ? null : schema));
                }));
        operations = List.copyOf(ops);
    }

    JsonNode resolve(JsonNode schema) {
        for (int i = 0; i < 10 && schema != null && schema.has("$ref"); i++) {
            String ref = schema.get("$ref").asText();
            schema = openapi.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
        }
        return schema;
    }

    List<Operation> withBody() {
        return operations.stream()
                .filter(o -> o.method().equals("POST") || o.method().equals("PUT"))
                .toList();
    }

    /** A real value for a path parameter of the JSON organization, so that requests reach the handlers. */
    String realParam(String name, String path, Gen g) {
        return switch (name) {
            case "org" -> jsonOrg;
            case "project" -> "shop";
            case "env" -> "prod";
            case "env_type" -> "production";
            case "resource_type", "type" -> "thing";
            case "provider_type" -> "null";
            case "module" -> "thing-basic";
            case "runner" -> "r1";
            case "username" -> member;
            case "version" -> g.oneOf("1", "2");
            case "class" -> "default";
            case "resource_id" -> "shared.net";
            case "rule_id" ->
                path.contains("module-rules") ? ruleIds.get(jsonOrg + "/module") : ruleIds.get(jsonOrg + "/runner");
            // never a real deployment: following a live one would rightly take longer than the timeout
            case "id" ->
                path.contains("/service-users/")
                        ? "ci"
                        : path.contains("/providers/")
                                ? "default"
                                : UUID.randomUUID().toString();
            default -> UUID.randomUUID().toString();
        };
    }
}
