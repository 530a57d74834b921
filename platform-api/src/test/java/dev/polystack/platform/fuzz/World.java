package dev.polystack.platform.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.runner.RunnerKeys;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;

import java.io.IOException;
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
    /** The organization whose manifests are fuzzed. */
    final Scenario manifests;
    /** The organization whose configuration (JSON bodies, parameters) is fuzzed. */
    final Scenario configuration;

    final String manifestOrg;
    final String jsonOrg;
    final String member = uniqueId("member");
    final Map<String, String> ruleIds = new ConcurrentHashMap<>();
    final String runnerJwt;
    final String publicKey;
    final List<Operation> operations;
    final JsonNode openapi;

    World(int port) {
        this.port = port;
        manifests = organization("fuzz-m");
        configuration = organization("fuzz-j");
        manifestOrg = manifests.org;
        jsonOrg = configuration.org;
        ruleIds.put(jsonOrg + "/runner", configuration.runnerRuleId);
        RunnerDriver runner = configuration.runner;
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
        configuration.manifest("shared:\n  net: { type: vpc }\n");
        // a valid manifest passes, so the generated valid ones can too
        manifests.manifest(
                "workloads:\n  api:\n    resources:\n      db: { type: thing, params: { engine_version: \"16\" } }\n"
                        + "    outputs:\n      host: ${resources.db.outputs.host}\nshared:\n  net: { type: vpc }\n");

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

    /**
     * An organization of the shared fixture with two resource types: {@code thing} (optional params
     * engine_version and size, outputs host and port) for production environments, and {@code vpc}.
     */
    private Scenario organization(String prefix) {
        Scenario s = Scenario.withoutModules(prefix, 4);
        s.resourceType(Map.of(
                "id",
                "thing",
                "developer_accessible",
                true,
                "output_schema",
                Map.of(
                        "type",
                        "object",
                        "properties",
                        Map.of("host", Map.of("type", "string"), "port", Map.of("type", "integer")))));
        s.resourceType(Map.of(
                "id",
                "vpc",
                "output_schema",
                Map.of("type", "object", "properties", Map.of("subnet_id", Map.of("type", "string")))));
        s.provider(Map.of("provider_type", "null", "id", "default", "source", "hashicorp/null"));
        s.module(Map.of(
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
                Map.of("name", "${context.env_id}-${context.res_id}")));
        s.module(Map.of(
                "id",
                "vpc-basic",
                "resource_type",
                "vpc",
                "module_source",
                "inline",
                "module_source_code",
                "output \"subnet_id\" { value = \"subnet-1\" }\n"));
        s.moduleRule(Map.of("module_id", "vpc-basic"));
        ruleIds.put(s.org + "/module", s.moduleRule(Map.of("module_id", "thing-basic", "env_type_id", "production")));
        return s;
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
