package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

/**
 * The whole product with real processes: the packaged platform-api on its embedded PostgreSQL, and two
 * runner-agent processes running OpenTofu — the stand-in always, the real {@code tofu} too when one
 * is on the PATH. Modules use only {@code terraform_data}, which needs no provider download.
 */
class AgentEndToEndIT {

    static final String ADMIN = "pst_e2e-admin-token-0123456789abcdefghijklmnopqrstu";

    /** Every resource is one terraform_data; the outputs are derived from the inputs. */
    static final String MODULE = """
            variable "name" { type = string }
            variable "upstream" {
              type    = any
              default = null
            }
            variable "size" {
              type    = number
              default = 1
            }
            variable "fail_at" {
              type    = string
              default = ""
            }
            variable "apply_ms" {
              type    = number
              default = 0
            }
            resource "terraform_data" "this" {
              input = { name = var.name, upstream = var.upstream, size = var.size }
              lifecycle {
                precondition {
                  condition     = var.fail_at != "apply"
                  error_message = "fail_at is apply: asked to fail"
                }
              }
              provisioner "local-exec" {
                command = "sleep ${var.apply_ms / 1000}"
              }
            }
            output "name" { value = var.name }
            """;

    @TempDir
    Path workspace;

    @Test
    void withTheOpenTofuStandIn() throws Exception {
        Path launcher = StandInTofu.writeLauncher(workspace.resolve("bin"), System.getProperty("java.class.path"));
        scenario(launcher.toString());
    }

    @Test
    void withTheRealOpenTofuOrTerraformOnThePath() throws Exception {
        Path binary = Readme.realBinaryOrSkip("AgentEndToEndIT.withTheRealOpenTofuOrTerraformOnThePath");
        // providers come from a mirror that refuses every connection: a provider download fails the same way everywhere
        scenario(binary.toString(), "--cli-config=" + Readme.offlineCliConfig(workspace.resolve("cli")));
    }

    private void scenario(String tofu, String... agentSettings) throws Exception {
        boolean real = agentSettings.length > 0;
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            String url = platform.baseUrl();
            configure(url);
            Path key1 = workspace.resolve("keys/r1.key");
            Path key2 = workspace.resolve("keys/r2.key");
            register(url, "r1", AgentProcess.keygen(key1));
            register(url, "r2", AgentProcess.keygen(key2));
            api(url).body(Map.of("runner_id", "r1"))
                    .post("/api/v1/orgs/acme/runner-rules")
                    .then()
                    .statusCode(201);
            api(url).body(Map.of("runner_id", "r2", "resource_class", "special"))
                    .post("/api/v1/orgs/acme/runner-rules")
                    .then()
                    .statusCode(201);

            try (AgentProcess agent1 = AgentProcess.start(
                            url, "acme", "r1", key1, tofu, workspace.resolve("agent1"), 2, agentSettings);
                    AgentProcess agent2 = AgentProcess.start(
                            url, "acme", "r2", key2, tofu, workspace.resolve("agent2"), 2, agentSettings)) {
                // six resources in a DAG (and a seventh on its own); f and g go to the second runner
                String manifest = """
                        workloads:
                          app:
                            resources:
                              a: { type: thing }
                              b: { type: thing, params: { upstream: "${resources.a.outputs.name}" } }
                              c: { type: thing, params: { upstream: "${resources.a.outputs.name}" } }
                              d: { type: thing, params: { upstream: ["${resources.b.outputs.name}", "${resources.c.outputs.name}"] } }
                              e: { type: thing, params: { upstream: "up-${resources.d.outputs.name}" } }
                              f: { type: thing, class: special, params: { upstream: "${resources.a.outputs.name}" } }
                              g: { type: thing, class: special }
                        """;
                putManifest(url, manifest);
                String first = deploy(url, Map.of("mode", "deploy"));
                assertThat(waitFor(url, first, agent1, agent2)).isEqualTo("succeeded");

                var graph = api(url).queryParam("outputs", true)
                        .get("/api/v1/orgs/acme/projects/shop/envs/prod/resource-graph")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath();
                assertThat(graph.getList("nodes")).hasSize(7);
                assertThat(graph.getString("nodes.find { it.id == 'app.f' }.runner_id"))
                        .isEqualTo("r2");
                assertThat(graph.getString("nodes.find { it.id == 'app.g' }.runner_id"))
                        .isEqualTo("r2");
                assertThat(graph.getString("nodes.find { it.id == 'app.d' }.runner_id"))
                        .isEqualTo("r1");
                assertThat(graph.getString("nodes.find { it.id == 'app.e' }.outputs.name"))
                        .isEqualTo("prod-app.e");
                assertThat(graph.getList("nodes.find { it.id == 'app.e' }.resources.type"))
                        .contains("terraform_data");
                assertThat(graph.getList("edges.findAll { it.from == 'thing/default/app.d' }.to"))
                        .containsExactlyInAnyOrder("thing/default/app.b", "thing/default/app.c");

                // outputs flowed into the dependents' inputs: read d's and e's state as the backend stored it
                assertThat(stateOf(url, "app.d")).contains("\"prod-app.b\"", "\"prod-app.c\"");
                assertThat(stateOf(url, "app.e")).contains("\"up-prod-app.d\"");
                api(url).get("/api/v1/orgs/acme/projects/shop/envs/prod/deployments/{id}/logs?limit=500", first)
                        .then()
                        .statusCode(200)
                        .body("items.message", hasItems("Apply complete! Resources: 1 added, 0 changed, 0 destroyed."));

                // change: b gets another size, g is removed and destroyed; the rest is unchanged
                putManifest(
                        url,
                        manifest.replace("b: { type: thing, params: {", "b: { type: thing, params: { size: 2,")
                                .replace("      g: { type: thing, class: special }\n", ""));
                String change = deploy(url, Map.of("mode", "deploy"));
                assertThat(waitFor(url, change, agent1, agent2)).isEqualTo("succeeded");
                Map<String, String> statuses = nodeStatuses(url, change);
                assertThat(statuses)
                        .containsEntry("app.b", "succeeded")
                        .containsEntry("app.g", "succeeded")
                        .containsEntry("app.a", "unchanged")
                        .containsEntry("app.c", "unchanged");
                assertThat(api(url).get("/api/v1/orgs/acme/projects/shop/envs/prod/resource-graph")
                                .jsonPath()
                                .getList("nodes"))
                        .hasSize(6);

                // a failing module: h fails, its dependent i is skipped, the deployment fails
                putManifest(url, manifest.replace("      g: { type: thing, class: special }\n", """
                              h: { type: thing, params: { fail_at: apply } }
                              i: { type: thing, params: { upstream: "${resources.h.outputs.name}" } }
                        """));
                String failing = deploy(url, Map.of("mode", "deploy"));
                assertThat(waitFor(url, failing, agent1, agent2)).isEqualTo("failed");
                assertThat(nodeStatuses(url, failing))
                        .containsEntry("app.h", "failed")
                        .containsEntry("app.i", "skipped");

                // a cancel while a slow apply runs
                putManifest(
                        url,
                        manifest.replace(
                                "      g: { type: thing, class: special }\n",
                                "      slow: { type: thing, params: { apply_ms: 60000 } }\n"));
                String slow = deploy(url, Map.of("mode", "deploy"));
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> nodeStatuses(url, slow).get("app.slow").equals("running"));
                Thread.sleep(3000);
                api(url).post("/api/v1/orgs/acme/projects/shop/envs/prod/deployments/{id}/cancel", slow)
                        .then()
                        .statusCode(200);
                assertThat(waitFor(url, slow, agent1, agent2)).isEqualTo("cancelled");
                assertThat(nodeStatuses(url, slow)).containsEntry("app.slow", "cancelled");

                // a rollback to the first deployment brings g back and b's size
                String rollback = deploy(url, Map.of("mode", "rollback", "rollback_to", first));
                assertThat(waitFor(url, rollback, agent1, agent2)).isEqualTo("succeeded");
                List<String> ids = api(url).get("/api/v1/orgs/acme/projects/shop/envs/prod/resource-graph")
                        .jsonPath()
                        .getList("nodes.id");
                assertThat(ids)
                        .containsExactlyInAnyOrder("app.a", "app.b", "app.c", "app.d", "app.e", "app.f", "app.g");

                if (real) {
                    failuresCarryTheirReason(url, agent1, agent2);
                }

                // deleting the environment destroys everything first
                String destroy = api(url).delete("/api/v1/orgs/acme/projects/shop/envs/prod")
                        .then()
                        .statusCode(202)
                        .extract()
                        .path("id");
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> api(url).get("/api/v1/orgs/acme/projects/shop/envs/prod")
                                        .statusCode()
                                == 404);
                assertThat(destroy).isNotNull();
                assertThat(agent1.isAlive() && agent2.isAlive()).isTrue();
            }
        }
    }

    /**
     * What the real binary reports reaches the node's error: a syntax error the control plane's reader lets
     * through (init prints it as text), a block the resource does not have (plan prints it as -json), and a
     * provider that cannot be downloaded. The stand-in reads no HCL and downloads nothing, so only here.
     */
    private void failuresCarryTheirReason(String url, AgentProcess... agents) throws Exception {
        api(url).body(Map.of(
                        "provider_type",
                        "null",
                        "id",
                        "default",
                        "source",
                        "hashicorp/null",
                        "version_constraint",
                        "~> 3.2"))
                .post("/api/v1/orgs/acme/providers")
                .then()
                .statusCode(201);
        Map<String, Map<String, Object>> modules = Map.of(
                "syntax",
                        Map.of(
                                "module_source_code",
                                "variable \"name\" {}\nlocals {\n  broken = var.\n}\n",
                                "module_inputs",
                                Map.of("name", "${context.res_id}")),
                "block",
                        Map.of(
                                "module_source_code",
                                "resource \"terraform_data\" \"this\" {\n  input = 1\n  bogus {\n  }\n}\n"),
                "remote",
                        Map.of(
                                "module_source_code",
                                "resource \"null_resource\" \"this\" {}\n",
                                "provider_mapping",
                                Map.of("null", "null.default")));
        modules.forEach((type, definition) -> {
            api(url).body(Map.of("id", type))
                    .post("/api/v1/orgs/acme/resource-types")
                    .then()
                    .statusCode(201);
            java.util.Map<String, Object> module = new java.util.HashMap<>(definition);
            module.putAll(Map.of("id", type, "resource_type", type, "module_source", "inline"));
            api(url).body(module).post("/api/v1/orgs/acme/modules").then().statusCode(201);
            api(url).body(Map.of("module_id", type))
                    .post("/api/v1/orgs/acme/module-rules")
                    .then()
                    .statusCode(201);
        });
        api(url).body(Map.of("id", "diag", "env_type_id", "production"))
                .post("/api/v1/orgs/acme/projects/shop/envs")
                .then()
                .statusCode(201);
        api(url).contentType("application/yaml")
                .body("shared:\n  s: { type: syntax }\n  b: { type: block }\n  p: { type: remote }\n"
                        .getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/acme/projects/shop/envs/diag/manifest")
                .then()
                .statusCode(201);
        String id = api(url).body(Map.of("mode", "deploy"))
                .post("/api/v1/orgs/acme/projects/shop/envs/diag/deployments")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(waitFor(url, "diag", id, agents)).isEqualTo("failed");
        List<Map<String, Object>> nodes = api(url).get("/api/v1/orgs/acme/projects/shop/envs/diag/deployments/{id}", id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("nodes");
        Map<String, String> errors = new java.util.TreeMap<>();
        nodes.forEach(n -> errors.put((String) n.get("id"), String.valueOf(n.get("error"))));
        System.out.println("AgentEndToEndIT node errors from the real binary: " + errors);
        assertThat(errors.get("shared.s"))
                .contains("`init` failed: Invalid attribute name (module/main.tf line 3)")
                .contains("An attribute name is required after a dot.");
        assertThat(errors.get("shared.b"))
                .contains("`plan` failed: Unsupported block type (module/main.tf line 3)")
                .contains("Blocks of type \"bogus\" are not expected here.");
        assertThat(errors.get("shared.p"))
                .contains("`init` failed: Failed to query available provider packages")
                .contains("hashicorp/null");
    }

    /** The module's parameters: what the scenarios' manifests pass ({@link #MODULE} declares them). */
    static final Map<String, Object> PARAMS = Map.of(
            "upstream",
            Map.of("type", "any", "is_optional", true),
            "size",
            Map.of("type", "number", "is_optional", true),
            "fail_at",
            Map.of("type", "string", "is_optional", true),
            "apply_ms",
            Map.of("type", "number", "is_optional", true));

    /** The shared fixture of the end-to-end tests, as the administrator. */
    static Polystack polystack(String url) {
        return new Polystack(url, ADMIN);
    }

    /** Organization acme with project shop, environment prod, resource type thing and its module ({@link #MODULE}) with a rule. */
    static void configure(String url) {
        Polystack polystack = polystack(url);
        polystack.configure(MODULE, PARAMS);
        polystack.environment("prod");
    }

    static void register(String url, String runner, String publicKey) {
        polystack(url).runner(runner, publicKey, 2);
    }

    private void putManifest(String url, String yaml) {
        polystack(url).manifest("prod", yaml);
    }

    private String deploy(String url, Map<String, Object> body) {
        return polystack(url).deploy("prod", body);
    }

    /** Long-polls the deployment until it ends; with the agents' logs when it takes too long. */
    private String waitFor(String url, String id, AgentProcess... agents) throws Exception {
        return waitFor(url, "prod", id, agents);
    }

    private String waitFor(String url, String env, String id, AgentProcess... agents) throws Exception {
        try {
            return polystack(url).await(env, id, Duration.ofMinutes(4));
        } catch (AssertionError e) {
            StringBuilder logs = new StringBuilder();
            for (AgentProcess agent : agents) {
                logs.append(agent.log()).append("\n----\n");
            }
            throw new AssertionError(e.getMessage() + "; agent logs:\n" + logs, e);
        }
    }

    private Map<String, String> nodeStatuses(String url, String id) {
        return polystack(url).nodeStatuses("prod", id);
    }

    private String stateOf(String url, String resource) {
        String versions = "/api/v1/orgs/acme/projects/shop/envs/prod/state/thing/default/" + resource + "/versions";
        String latest = api(url).get(versions).then().statusCode(200).extract().path("items[0].id");
        return api(url).get(versions + "/" + latest)
                .then()
                .statusCode(200)
                .body("version", equalTo(4))
                .extract()
                .asString();
    }

    private static RequestSpecification api(String url) {
        return RestAssured.given()
                .baseUri(url)
                .auth()
                .oauth2(ADMIN)
                .contentType(ContentType.JSON)
                .accept(ContentType.JSON);
    }
}
