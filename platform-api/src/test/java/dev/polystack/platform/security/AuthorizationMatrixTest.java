package dev.polystack.platform.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every operation of the published OpenAPI document, called as every kind of caller. A new operation
 * without an expectation here fails the test. Another tenant's objects must answer 404 and nothing of
 * them may come back or change.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class AuthorizationMatrixTest {

    /** What an operation needs. */
    enum Needs {
        PUBLIC,
        CALLER,
        VIEWER,
        DEVELOPER,
        PLATFORM_ENGINEER,
        OWNER,
        INSTANCE_ADMIN,
        RUNNER,
        JOB
    }

    static final Map<String, Needs> EXPECTED = new HashMap<>();

    static {
        for (String op : List.of("getAuthConfig")) {
            EXPECTED.put(op, Needs.PUBLIC);
        }
        for (String op : List.of("getMe", "listOwnTokens", "createOwnToken", "revokeOwnToken", "listOrgs")) {
            EXPECTED.put(op, Needs.CALLER);
        }
        for (String op : List.of(
                "getOrg",
                "listMembers",
                "getMember",
                "listServiceUsers",
                "getServiceUser",
                "listProjects",
                "getProject",
                "listEnvironments",
                "getEnvironment",
                "listEnvTypes",
                "getEnvType",
                "listResourceTypes",
                "getResourceType",
                "listProviders",
                "getProvider",
                "listModules",
                "getModule",
                "listModuleVersions",
                "getModuleVersion",
                "listModuleRules",
                "getModuleRule",
                "listRunners",
                "getRunner",
                "listRunnerRules",
                "getRunnerRule",
                "listManifests",
                "getManifest",
                "listDeployments",
                "getDeployment",
                "getDeploymentGraph",
                "getDeploymentLogs",
                "waitForDeployment",
                "getResourceGraph",
                "explainResource",
                "getQuotas",
                "listEnvironmentIssues",
                "listIssues",
                "listApprovals",
                "listPendingApprovals",
                "decideApproval")) {
            EXPECTED.put(op, Needs.VIEWER);
        }
        for (String op : List.of(
                "createProject",
                "updateProject",
                "deleteProject",
                "createEnvironment",
                "updateEnvironment",
                "deleteEnvironment",
                "putManifest",
                "dryRunManifest",
                "putScoreManifest",
                "createDeployment",
                "cancelDeployment",
                "startCheck",
                "acknowledgeIssue")) {
            EXPECTED.put(op, Needs.DEVELOPER);
        }
        for (String op : List.of(
                "createEnvType",
                "updateEnvType",
                "deleteEnvType",
                "createResourceType",
                "updateResourceType",
                "deleteResourceType",
                "createProvider",
                "updateProvider",
                "deleteProvider",
                "createModule",
                "updateModule",
                "deleteModule",
                "createModuleRule",
                "manageModuleRule",
                "deleteModuleRule",
                "createRunner",
                "updateRunner",
                "deleteRunner",
                "createRunnerRule",
                "manageRunnerRule",
                "deleteRunnerRule",
                "listAuditEvents",
                "applyConfigurationBatch",
                "createWebhook",
                "listWebhooks",
                "getWebhook",
                "deleteWebhook",
                "listWebhookDeliveries")) {
            EXPECTED.put(op, Needs.PLATFORM_ENGINEER);
        }
        for (String op : List.of(
                "updateOrg",
                "addMember",
                "updateMember",
                "removeMember",
                "createServiceUser",
                "updateServiceUser",
                "deleteServiceUser",
                "listServiceUserTokens",
                "createServiceUserToken",
                "revokeServiceUserToken",
                "getGroupMappings",
                "putGroupMappings",
                "listStateVersions",
                "getStateVersion")) {
            EXPECTED.put(op, Needs.OWNER);
        }
        EXPECTED.put("createOrg", Needs.INSTANCE_ADMIN);
        EXPECTED.put("deleteOrg", Needs.INSTANCE_ADMIN);
        EXPECTED.put("getEngineDiagnostics", Needs.INSTANCE_ADMIN);
        EXPECTED.put("listInstanceAuditEvents", Needs.INSTANCE_ADMIN);
        EXPECTED.put("putQuotas", Needs.INSTANCE_ADMIN);
        for (String op : List.of("claimJob", "heartbeatJob", "appendJobLogs", "reportJobResult")) {
            EXPECTED.put(op, Needs.RUNNER);
        }
        for (String op : List.of("getState", "putState", "lockState", "unlockState")) {
            EXPECTED.put(op, Needs.JOB);
        }
    }

    /** The callers, from least to most privileged; the order in which they are tried. */
    enum Identity {
        ANONYMOUS,
        EXPIRED,
        REVOKED,
        OTHER_TENANT,
        RUNNER_OTHER_ORG,
        JOB,
        RUNNER,
        VIEWER,
        DEVELOPER,
        PLATFORM_ENGINEER,
        OWNER,
        INSTANCE_ADMIN
    }

    private static final Set<Integer> DENIED = Set.of(401, 403);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource dataSource;

    private record Operation(String method, String path, String id) {}

    @Test
    void everyOperationAnswersEveryIdentityAsExpected() throws Exception {
        List<Operation> operations = operations();
        List<String> missing = operations.stream()
                .map(Operation::id)
                .filter(id -> !EXPECTED.containsKey(id))
                .toList();
        assertThat(missing)
                .as("operations without an expectation in the authorization matrix")
                .isEmpty();

        World world = new World();
        Map<String, String> before = world.snapshot();
        List<String> violations = new ArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        for (Identity identity : Identity.values()) {
            if (identity == Identity.JOB) {
                // Everyone before the tenant's own job is an outsider: nothing of the tenant may have changed.
                Map<String, String> after = world.snapshot();
                for (String list : before.keySet()) {
                    assertThat(after.get(list))
                            .as("%s of the tenant changed by outsiders", list)
                            .isEqualTo(before.get(list));
                }
            }
            for (String phase : List.of("GET", "POST", "PUT", "DELETE", "LOCK", "UNLOCK")) {
                for (Operation operation : operations) {
                    if (!operation.method().equals(phase)) {
                        continue;
                    }
                    Response response = world.call(identity, operation);
                    calls.incrementAndGet();
                    String problem = judge(identity, operation, response, world);
                    if (problem != null) {
                        violations.add(identity + " " + operation.method() + " " + operation.path() + " ("
                                + operation.id() + "): " + problem);
                    }
                }
            }
        }
        System.out.printf(
                "Authorization matrix: %d operations x %d identities = %d calls, %d violations%n",
                operations.size(), Identity.values().length, calls.get(), violations.size());
        assertThat(violations).isEmpty();
    }

    /** Null when the answer is the expected one. */
    private static String judge(Identity identity, Operation operation, Response response, World world) {
        int status = response.statusCode();
        String body = response.asString();
        Needs needs = EXPECTED.get(operation.id());
        if (status >= 500) {
            return "server error " + status + ": " + body;
        }
        if (identity == Identity.OTHER_TENANT || identity == Identity.RUNNER_OTHER_ORG) {
            if (body.contains(world.marker)) {
                return "another tenant's data came back: " + body;
            }
        }
        if (identity == Identity.RUNNER_OTHER_ORG && operation.id().equals("claimJob") && status != 204) {
            return "another organization's runner must find no work here, but got " + status + ": " + abbreviate(body);
        }
        boolean allowed = allowed(identity, needs, operation);
        if (!allowed) {
            int expected = expectedDenial(identity, needs, operation);
            return status == expected ? null : "expected " + expected + " but was " + status + ": " + abbreviate(body);
        }
        if (DENIED.contains(status)) {
            return "expected to be allowed but was " + status + ": " + abbreviate(body);
        }
        return null;
    }

    private static boolean allowed(Identity identity, Needs needs, Operation operation) {
        return switch (needs) {
            case PUBLIC -> true;
            case CALLER ->
                Set.of(
                                Identity.OTHER_TENANT,
                                Identity.VIEWER,
                                Identity.DEVELOPER,
                                Identity.PLATFORM_ENGINEER,
                                Identity.OWNER,
                                Identity.INSTANCE_ADMIN)
                        .contains(identity);
            // Any runner may ask for work; another organization's runner just gets none of this tenant's.
            case RUNNER ->
                identity == Identity.RUNNER
                        || identity == Identity.RUNNER_OTHER_ORG
                                && operation.id().equals("claimJob");
            case JOB -> identity == Identity.JOB;
            case INSTANCE_ADMIN -> identity == Identity.INSTANCE_ADMIN;
            default -> {
                Role needed = switch (needs) {
                    case VIEWER -> Role.VIEWER;
                    case DEVELOPER -> Role.DEVELOPER;
                    case PLATFORM_ENGINEER -> Role.PLATFORM_ENGINEER;
                    default -> Role.OWNER;
                };
                Role role = switch (identity) {
                    case VIEWER -> Role.VIEWER;
                    case DEVELOPER -> Role.DEVELOPER;
                    case PLATFORM_ENGINEER -> Role.PLATFORM_ENGINEER;
                    case OWNER, INSTANCE_ADMIN -> Role.OWNER;
                    default -> null;
                };
                yield role != null && role.includes(needed);
            }
        };
    }

    private static int expectedDenial(Identity identity, Needs needs, Operation operation) {
        boolean api = operation.path().startsWith("/api/v1/");
        boolean runnerPath = operation.path().startsWith("/api/runner/");
        switch (identity) {
            case ANONYMOUS, EXPIRED, REVOKED, JOB:
                return 401;
            case RUNNER, RUNNER_OTHER_ORG:
                if (runnerPath) {
                    return 404;
                }
                return 401;
            case OTHER_TENANT:
                if (!api) {
                    return 401;
                }
                if (needs == Needs.INSTANCE_ADMIN) {
                    return 403;
                }
                return 404;
            default:
                if (!api) {
                    return 401;
                }
                return 403;
        }
    }

    private static String abbreviate(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "…" : body;
    }

    private List<Operation> operations() throws Exception {
        JsonNode document = JSON.readTree(
                given().accept("application/json").get("/q/openapi?format=json").asString());
        List<Operation> operations = new ArrayList<>();
        document.path("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
                    if (method.getValue().has("operationId")) {
                        operations.add(new Operation(
                                method.getKey().toUpperCase(),
                                path.getKey(),
                                method.getValue().path("operationId").asText()));
                    }
                }));
        // the state backend's LOCK and UNLOCK are not OpenAPI methods; they take the state path of getState
        String statePath = operations.stream()
                .filter(o -> o.id().equals("getState"))
                .findFirst()
                .orElseThrow()
                .path();
        operations.add(new Operation("LOCK", statePath, "lockState"));
        operations.add(new Operation("UNLOCK", statePath, "unlockState"));
        return operations;
    }

    /** The tenant and everything the calls refer to, and the callers. */
    private final class World {
        final String org = uniqueId("matrix");
        final String marker = "marker-" + UUID.randomUUID();
        final String otherOrg = dev.polystack.platform.testing.Api.createOrg();
        final Map<Identity, String> tokens = new LinkedHashMap<>();
        final Map<String, String> values = new HashMap<>();
        final RunnerDriver runner;
        final RunnerDriver otherRunner;
        final String jobId;
        final String jobAuth;
        final String environmentId;

        World() throws Exception {
            admin().body(Map.of("id", org, "name", "Org " + marker))
                    .post("/api/v1/orgs")
                    .then()
                    .statusCode(201);
            admin().body(Map.of("id", "production", "description", marker))
                    .post("/api/v1/orgs/{org}/env-types", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of("id", "shop", "name", marker))
                    .post("/api/v1/orgs/{org}/projects", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of("id", "prod", "env_type_id", "production"))
                    .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of("id", "thing", "description", marker, "output_schema", Map.of("type", "object")))
                    .post("/api/v1/orgs/{org}/resource-types", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of(
                            "provider_type",
                            "null",
                            "id",
                            "default",
                            "source",
                            "hashicorp/null",
                            "configuration",
                            Map.of("m", marker)))
                    .post("/api/v1/orgs/{org}/providers", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of(
                            "id",
                            "thing",
                            "resource_type",
                            "thing",
                            "module_source",
                            "inline",
                            "module_source_code",
                            "# " + marker))
                    .post("/api/v1/orgs/{org}/modules", org)
                    .then()
                    .statusCode(201);
            values.put(
                    "module_rule",
                    admin().body(Map.of("module_id", "thing"))
                            .post("/api/v1/orgs/{org}/module-rules", org)
                            .then()
                            .statusCode(201)
                            .extract()
                            .path("id"));
            runner = RunnerDriver.register(org, "r1", 4);
            values.put(
                    "runner_rule",
                    admin().body(Map.of("runner_id", "r1"))
                            .post("/api/v1/orgs/{org}/runner-rules", org)
                            .then()
                            .statusCode(201)
                            .extract()
                            .path("id"));
            otherRunner = RunnerDriver.register(otherOrg, "r1", 4);
            admin().contentType("application/yaml")
                    .body("shared:\n  a: { type: thing }\n".getBytes(StandardCharsets.UTF_8))
                    .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", org)
                    .then()
                    .statusCode(201);
            values.put(
                    "deployment",
                    admin().body(Map.of("mode", "deploy"))
                            .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", org)
                            .then()
                            .statusCode(201)
                            .extract()
                            .path("id"));
            Map<String, Object> job = runner.claim("5s");
            jobId = job.get("job_id").toString();
            @SuppressWarnings("unchecked")
            Map<String, Object> state = (Map<String, Object>) job.get("state");
            jobAuth = "Basic "
                    + Base64.getEncoder()
                            .encodeToString((state.get("username") + ":" + state.get("password"))
                                    .getBytes(StandardCharsets.UTF_8));
            String address =
                    java.net.URI.create(state.get("address").toString()).getPath();
            environmentId = address.split("/")[4];

            for (Identity identity :
                    List.of(Identity.VIEWER, Identity.DEVELOPER, Identity.PLATFORM_ENGINEER, Identity.OWNER)) {
                tokens.put(
                        identity,
                        dev.polystack.platform.testing.Api.tokenFor(
                                org, identity.name().toLowerCase().replace("_", "-")));
            }
            tokens.put(Identity.INSTANCE_ADMIN, PostgresResource.ADMIN_TOKEN);
            tokens.put(Identity.OTHER_TENANT, dev.polystack.platform.testing.Api.tokenFor(otherOrg, "owner"));
            admin().body(Map.of("id", "expired", "role", "owner"))
                    .post("/api/v1/orgs/{org}/service-users", org)
                    .then()
                    .statusCode(201);
            tokens.put(
                    Identity.EXPIRED,
                    admin().body(Map.of("name", "soon"))
                            .post("/api/v1/orgs/{org}/service-users/expired/tokens", org)
                            .then()
                            .statusCode(201)
                            .extract()
                            .path("token"));
            try (Connection c = dataSource.getConnection();
                    Statement s = c.createStatement()) {
                s.executeUpdate("update api_token set expires_at = now() - interval '1 minute' where name = 'soon'");
            }
            admin().body(Map.of("id", "revoked", "role", "owner"))
                    .post("/api/v1/orgs/{org}/service-users", org)
                    .then()
                    .statusCode(201);
            var revoked = admin().body(Map.of("name", "gone"))
                    .post("/api/v1/orgs/{org}/service-users/revoked/tokens", org)
                    .then()
                    .statusCode(201)
                    .extract();
            tokens.put(Identity.REVOKED, revoked.path("token"));
            admin().delete(
                            "/api/v1/orgs/{org}/service-users/revoked/tokens/{id}",
                            org,
                            revoked.path("id").toString())
                    .then()
                    .statusCode(200);
            admin().body(Map.of("username", "member-" + org, "role", "viewer"))
                    .post("/api/v1/orgs/{org}/members", org)
                    .then()
                    .statusCode(201);
            admin().body(Map.of("id", "ci", "role", "developer"))
                    .post("/api/v1/orgs/{org}/service-users", org)
                    .then()
                    .statusCode(201);
            values.put(
                    "su_token",
                    admin().body(Map.of("name", "t"))
                            .post("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                            .then()
                            .statusCode(201)
                            .extract()
                            .path("id"));
        }

        /** The tenant's objects as an administrator sees them, to notice changes. */
        Map<String, String> snapshot() {
            Map<String, String> lists = new TreeMap<>();
            for (String path : List.of(
                    "",
                    "/projects",
                    "/env-types",
                    "/resource-types",
                    "/providers",
                    "/modules",
                    "/module-rules",
                    "/runners",
                    "/runner-rules",
                    "/members",
                    "/service-users",
                    "/projects/shop/envs",
                    "/projects/shop/envs/prod/deployments")) {
                lists.put(
                        path,
                        admin().get("/api/v1/orgs/" + org + path)
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString()
                                .replaceAll(
                                        "\"(last_seen_at|status|updated_at|started_at|finished_at|progress)\":(\"[^\"]*\"|\\{[^}]*\\}|null)",
                                        ""));
            }
            return lists;
        }

        Response call(Identity identity, Operation operation) {
            String path = operation.path();
            Map<String, String> params = new HashMap<>();
            params.put("org", org);
            params.put("project", "shop");
            params.put("env", "prod");
            params.put("env_type", "production");
            params.put("resource_type", "thing");
            params.put("provider_type", "null");
            params.put("module", "thing");
            params.put("runner", "r1");
            params.put("username", "member-" + org);
            params.put("version", "1");
            params.put("type", "thing");
            params.put("class", "default");
            params.put("resource_id", "shared.a");
            params.put("environment_id", environmentId);
            params.put("job_id", jobId);
            params.put(
                    "token_id",
                    path.contains("service-users")
                            ? values.get("su_token")
                            : UUID.randomUUID().toString());
            params.put("version_id", UUID.randomUUID().toString());
            params.put(
                    "rule_id", path.contains("module-rules") ? values.get("module_rule") : values.get("runner_rule"));
            params.put(
                    "id",
                    path.contains("/deployments/")
                            ? values.get("deployment")
                            : path.contains("/issues/") || path.contains("/webhooks/")
                                    ? UUID.randomUUID().toString()
                                    : path.contains("/service-users/")
                                            ? "ci"
                                            : path.contains("/providers/") ? "default" : "x");
            String concrete = path;
            for (Map.Entry<String, String> param : params.entrySet()) {
                concrete = concrete.replace("{" + param.getKey() + "}", param.getValue());
            }
            RequestSpecification request =
                    given().contentType("application/json").accept("application/json");
            switch (identity) {
                case ANONYMOUS -> {}
                case RUNNER -> request.auth().oauth2(runner.jwt());
                case RUNNER_OTHER_ORG -> request.auth().oauth2(otherRunner.jwt());
                case JOB -> request.header("Authorization", jobAuth);
                default -> request.auth().oauth2(tokens.get(identity));
            }
            Object body = body(operation.id());
            if (operation.id().equals("putManifest") || operation.id().equals("dryRunManifest")) {
                request.contentType("application/yaml")
                        .body("shared:\n  a: { type: thing }\n".getBytes(StandardCharsets.UTF_8));
            } else if (operation.id().equals("putScoreManifest")) {
                request.contentType("application/yaml")
                        .queryParam("workload_type", "thing")
                        .body(
                                "apiVersion: score.dev/v1b1\nmetadata: { name: web }\ncontainers: { main: { image: nginx } }\n"
                                        .getBytes(StandardCharsets.UTF_8));
            } else if (operation.id().equals("lockState") || operation.id().equals("unlockState")) {
                request.body("{\"ID\":\"matrix-lock\",\"Operation\":\"OperationTypeApply\",\"Who\":\"matrix\","
                        + "\"Version\":\"1.11.0\",\"Created\":\"2026-01-01T00:00:00Z\",\"Path\":\"\"}");
            } else if (operation.id().equals("putState")) {
                request.body("{\"version\":4,\"serial\":1,\"lineage\":\"l\",\"resources\":[]}");
            } else if (body != null) {
                request.body(body);
            }
            if (operation.id().equals("explainResource")) {
                request.queryParam("type", "thing").queryParam("id", "shared.a");
            }
            if (operation.id().equals("claimJob") || operation.id().equals("waitForDeployment")) {
                request.queryParam(operation.id().equals("claimJob") ? "wait" : "timeout", "0s");
            }
            return request.request(operation.method(), concrete);
        }

        /** A valid body for each operation that takes one, with fresh ids. */
        Object body(String operation) {
            String id = uniqueId("x");
            Function<String, Object> none = x -> null;
            return switch (operation) {
                case "createOrg" -> Map.of("id", id, "name", "N");
                case "updateOrg", "updateProject" -> Map.of("name", "Renamed");
                case "createOwnToken", "createServiceUserToken" -> Map.of("name", "t");
                case "addMember" -> Map.of("username", id, "role", "viewer");
                case "updateMember" -> Map.of("role", "viewer");
                case "createServiceUser" -> Map.of("id", id, "role", "viewer");
                case "updateServiceUser" -> Map.of("role", "developer");
                case "putGroupMappings" -> Map.of("mappings", List.of());
                case "putQuotas" -> Map.of("projects", 100);
                case "createProject" -> Map.of("id", id, "name", "P");
                case "createEnvironment" -> Map.of("id", id, "env_type_id", "production");
                case "updateEnvironment" -> Map.of("env_type_id", "production");
                case "createEnvType" -> Map.of("id", id);
                case "updateEnvType" -> Map.of("description", "d");
                case "createResourceType" -> Map.of("id", id);
                case "updateResourceType" -> Map.of("output_schema", Map.of("type", "object"));
                case "createProvider" -> Map.of("provider_type", "null", "id", id, "source", "hashicorp/null");
                case "updateProvider" -> Map.of("source", "hashicorp/null");
                case "createModule" ->
                    Map.of("id", id, "resource_type", "thing", "module_source", "inline", "module_source_code", "#");
                case "updateModule" -> Map.of("module_source", "inline", "module_source_code", "# v2");
                case "createModuleRule" -> Map.of("module_id", "thing", "resource_id", id);
                case "manageModuleRule", "manageRunnerRule" -> Map.of("managed_by", "matrix");
                case "applyConfigurationBatch" ->
                    Map.of(
                            "changes",
                            List.of(Map.of("method", "POST", "path", "/env-types", "body", Map.of("id", id))));
                case "createRunner" ->
                    Map.of(
                            "id",
                            id,
                            "public_key",
                            dev.polystack.platform.runner.RunnerKeys.toPem(
                                    RunnerDriver.newKeys().getPublic()));
                case "updateRunner" ->
                    Map.of(
                            "public_key",
                            dev.polystack.platform.runner.RunnerKeys.toPem(
                                    RunnerDriver.newKeys().getPublic()),
                            "max_concurrent_jobs",
                            4);
                case "createRunnerRule" -> Map.of("runner_id", "r1", "resource_class", id.replace("-", "_"));
                case "createDeployment" -> Map.of("mode", "dry-run");
                case "acknowledgeIssue" -> Map.of("comment", "matrix");
                // the approval policy decides who may approve; any member may ask (and is told 409 here: the deployment
                // does not wait)
                case "decideApproval" -> Map.of("decision", "approve");
                // an address literal: nothing to resolve, and outside every private range
                case "createWebhook" ->
                    Map.of("url", "https://93.184.216.34/matrix", "events", List.of("issue.opened"));
                case "appendJobLogs" -> Map.of("batch", 0, "lines", List.of(Map.of("message", "hello")));
                case "reportJobResult" -> Map.of("status", "failed", "error", Map.of("summary", "matrix"));
                default -> none.apply(operation);
            };
        }
    }
}
