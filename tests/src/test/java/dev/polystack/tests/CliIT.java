package dev.polystack.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code polystack} command as a CI pipeline runs it: the launcher script and its jar as real
 * processes, against the packaged control plane and a runner agent running the real {@code tofu} or
 * {@code terraform}. Each exit code a pipeline branches on is produced for real.
 */
class CliIT {

    /** The administrator token {@link AgentEndToEndIT#configure} uses. */
    private static final String ADMIN = AgentEndToEndIT.ADMIN;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DEPLOYMENT = Pattern.compile("deployment ([0-9a-f-]{36})");

    @TempDir
    Path workspace;

    record Run(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    @Test
    void aPipelineDeploysWaitsAndBranchesOnTheExitCode() throws Exception {
        Path binary = Readme.realBinaryOrSkip("CliIT");
        Path cliConfig = Readme.offlineCliConfig(workspace.resolve("cli"));
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            String url = platform.baseUrl();
            AgentEndToEndIT.configure(url);
            Path key = workspace.resolve("keys/r1.key");
            AgentEndToEndIT.register(url, "r1", AgentProcess.keygen(key));
            RestAssured.given()
                    .baseUri(url)
                    .auth()
                    .oauth2(ADMIN)
                    .contentType("application/json")
                    .body(Map.of("runner_id", "r1"))
                    .post("/api/v1/orgs/acme/runner-rules")
                    .then()
                    .statusCode(201);
            Map<String, String> ci = Map.of("POLYSTACK_URL", url, "POLYSTACK_TOKEN", ADMIN);
            Path good = write(
                    "good.yaml",
                    "workloads:\n  app:\n    resources:\n      a: { type: thing }\n"
                            + "      b: { type: thing, params: { upstream: \"${resources.a.outputs.name}\" } }\n");

            // bad input: the problem's title, detail and the manifest line; exit 3
            Path bad = write(
                    "bad.yaml",
                    "workloads:\n  app:\n    resources:\n      a: { type: thing }\n      z: { type: no-such-type }\n");
            Run refused = cli(ci, "deploy", "-f", bad.toString(), "--env", "acme/shop/prod", "--wait");
            assertThat(refused.exit()).as(refused::all).isEqualTo(3);
            assertThat(refused.err()).contains("no-such-type").contains("(line 5)");
            assertThat(cli(ci, "deploy", "-f", "missing.yaml", "--env", "acme/shop/prod")
                            .exit())
                    .isEqualTo(3);
            assertThat(cli(ci, "deploy", "-f", good.toString(), "--env", "not-an-env")
                            .exit())
                    .isEqualTo(3);

            // no runner yet: the wait times out, exit 2; the deployment goes on until cancelled
            Run timedOut =
                    cli(ci, "deploy", "-f", good.toString(), "--env", "acme/shop/prod", "--wait", "--timeout", "3s");
            assertThat(timedOut.exit()).as(timedOut::all).isEqualTo(2);
            assertThat(timedOut.err()).contains("had not ended after");
            String waiting = deploymentOf(timedOut.out());
            Run cancelled = cli(ci, "cancel", waiting, "--env", "acme/shop/prod");
            assertThat(cancelled.exit()).as(cancelled::all).isZero();

            try (AgentProcess agent = AgentProcess.start(
                    url,
                    "acme",
                    "r1",
                    key,
                    binary.toString(),
                    workspace.resolve("agent"),
                    2,
                    "--cli-config=" + cliConfig)) {
                // succeeds: a line per resource, then the outputs; exit 0
                Run deployed = cli(
                        ci, "deploy", "-f", good.toString(), "--env", "acme/shop/prod", "--wait", "--timeout", "5m");
                assertThat(deployed.exit())
                        .as(() -> deployed.all() + "\nagent:\n" + log(agent))
                        .isZero();
                assertThat(deployed.out())
                        .contains(
                                "thing/default/app.a",
                                "thing/default/app.b",
                                "succeeded",
                                "Outputs:",
                                "name = prod-app.b");
                String id = deploymentOf(deployed.out());

                Run logs = cli(ci, "logs", id, "--env", "acme/shop/prod");
                assertThat(logs.exit()).isZero();
                assertThat(logs.out()).contains("Apply complete!");
                Run followed =
                        cli(ci, "logs", id, "--env", "acme/shop/prod", "-f", "--resource", "thing/default/app.a");
                assertThat(followed.exit()).as(followed::all).isZero();
                assertThat(followed.out()).contains("Apply complete!").doesNotContain("thing/default/app.b");

                JsonNode deployments =
                        JSON.readTree(cli(ci, "get", "deployments", "--env", "acme/shop/prod", "-o", "json")
                                .out());
                assertThat(deployments.findValuesAsText("status")).contains("succeeded", "cancelled");
                assertThat(cli(ci, "get", "resources", "--env", "acme/shop/prod")
                                .out())
                        .contains("app.a", "app.b");
                assertThat(cli(ci, "outputs", "--env", "acme/shop/prod", "--resource", "app.a")
                                .out())
                        .contains("prod-app.a");
                Run explained = cli(ci, "explain", "--env", "acme/shop/prod", "--type", "thing", "--id", "app.a");
                assertThat(explained.exit()).as(explained::all).isZero();
                assertThat(explained.out()).contains("Module: thing").contains("Runner: r1");

                // nothing would change: exit 0; a change: exit 2 with the resource marked
                Run same = cli(ci, "dry-run", "-f", good.toString(), "--env", "acme/shop/prod");
                assertThat(same.exit()).as(same::all).isZero();
                assertThat(same.out()).contains("0 to add, 0 to change, 0 to destroy, 2 unchanged");
                Path failing = write(
                        "failing.yaml",
                        Files.readString(good)
                                .replace("a: { type: thing }", "a: { type: thing, params: { fail_at: apply } }"));
                Run diff = cli(ci, "diff", "-f", failing.toString(), "--env", "acme/shop/prod");
                assertThat(diff.exit()).as(diff::all).isEqualTo(2);
                assertThat(diff.out()).contains("thing/default/app.a").contains("inputs changed");

                // fails: the failed resource and its error; exit 1
                Run failed = cli(
                        ci, "deploy", "-f", failing.toString(), "--env", "acme/shop/prod", "--wait", "--timeout", "5m");
                assertThat(failed.exit())
                        .as(() -> failed.all() + "\nagent:\n" + log(agent))
                        .isEqualTo(1);
                assertThat(failed.err()).contains("failed").contains("asked to fail");

                // Score: a workload with a resource of its own, converted, deployed, its container fed the resource's
                // output
                RestAssured.given()
                        .baseUri(url)
                        .auth()
                        .oauth2(ADMIN)
                        .contentType("application/json")
                        .body(Map.of("id", "score-workload", "output_schema", Map.of("type", "object")))
                        .post("/api/v1/orgs/acme/resource-types")
                        .then()
                        .statusCode(201);
                RestAssured.given()
                        .baseUri(url)
                        .auth()
                        .oauth2(ADMIN)
                        .contentType("application/json")
                        .body(Map.of(
                                "id",
                                "workload",
                                "resource_type",
                                "score-workload",
                                "module_source",
                                "inline",
                                "module_source_code",
                                """
                                variable "metadata" { type = any }
                                variable "containers" { type = any }
                                resource "terraform_data" "this" { input = var.containers }
                                output "image" { value = terraform_data.this.output.web.image }
                                output "db" { value = terraform_data.this.output.web.variables.DB }
                                """,
                                "module_params",
                                Map.of("metadata", Map.of("type", "any"), "containers", Map.of("type", "any"))))
                        .post("/api/v1/orgs/acme/modules")
                        .then()
                        .statusCode(201);
                RestAssured.given()
                        .baseUri(url)
                        .auth()
                        .oauth2(ADMIN)
                        .contentType("application/json")
                        .body(Map.of("module_id", "workload"))
                        .post("/api/v1/orgs/acme/module-rules")
                        .then()
                        .statusCode(201);
                Path score = write("score.yaml", """
                        apiVersion: score.dev/v1b1
                        metadata:
                          name: storefront
                        containers:
                          web:
                            image: nginx:1.27
                            variables:
                              DB: "${resources.db.name}"
                        resources:
                          db:
                            type: thing
                        """);
                Run scored = cli(
                        ci,
                        "score",
                        "deploy",
                        "-f",
                        score.toString(),
                        "--env",
                        "acme/shop/prod",
                        "--wait",
                        "--timeout",
                        "5m");
                assertThat(scored.exit())
                        .as(() -> scored.all() + "\nagent:\n" + log(agent))
                        .isZero();
                assertThat(scored.out())
                        .contains(
                                "score-workload/default/storefront.workload",
                                "db = prod-storefront.db",
                                "image = nginx:1.27");

                // the escape hatch
                Run api = cli(ci, "api", "GET", "/api/v1/orgs/acme/projects");
                assertThat(api.exit()).isZero();
                assertThat(api.out()).contains("\"shop\"");
                assertThat(cli(ci, "api", "GET", "/api/v1/orgs/nobody").exit()).isEqualTo(3);
            }

            // a person signs in once; the token is stored for the owner only and never shown
            Path home = Files.createDirectories(workspace.resolve("home"));
            Map<String, String> person = Map.of("HOME", home.toString());
            Run login =
                    withInput(person, ADMIN + "\n", "login", "--url", url, "--token-stdin", "--env", "acme/shop/prod");
            assertThat(login.exit()).as(login::all).isZero();
            Path config = home.resolve(".config/polystack/config");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
                    .isEqualTo("rw-------");
            Run contexts = cli(person, "context", "list");
            assertThat(contexts.out()).contains("* default").contains(url).doesNotContain(ADMIN);
            assertThat(cli(person, "get", "projects").out()).contains("shop");
            assertThat(cli(Map.of("HOME", workspace.resolve("nobody").toString()), "get", "projects")
                            .err())
                    .contains("not signed in");
        }
    }

    /**
     * A platform team's configuration in git, applied by the command a pipeline runs: the plan says what
     * would change and changes nothing, a second apply changes nothing, a module edit is one new version,
     * and a sync deletes what it manages and no document names, but never a protected object.
     */
    @Test
    void thePlatformsConfigurationIsPlannedAppliedAndSyncedFromGit() throws Exception {
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            String url = platform.baseUrl();
            RestAssured.given()
                    .baseUri(url)
                    .auth()
                    .oauth2(ADMIN)
                    .contentType("application/json")
                    .body(Map.of("id", "acme", "name", "Acme"))
                    .post("/api/v1/orgs")
                    .then()
                    .statusCode(201);
            Path repo = Files.createDirectories(workspace.resolve("platform-config"));
            Files.writeString(
                    repo.resolve("main.tf"), "variable \"size\" {}\nvariable \"password\" { sensitive = true }\n");
            Files.writeString(repo.resolve("types.yaml"), """
                    kind: EnvType
                    id: production
                    description: Live
                    protected: true
                    ---
                    kind: EnvType
                    id: preview
                    ---
                    kind: ResourceType
                    id: postgres
                    output_schema: { type: object }
                    """);
            Files.writeString(repo.resolve("modules.yaml"), """
                    kind: Module
                    id: rds
                    resource_type: postgres
                    module_source: inline
                    module_source_code_file: main.tf
                    module_inputs: { size: small }
                    secret_inputs: { password: "${env:DB_PASSWORD}" }
                    ---
                    kind: ModuleRule
                    module_id: rds
                    env_type_id: production
                    ---
                    kind: Project
                    id: shop
                    name: Shop
                    ---
                    kind: Environment
                    project_id: shop
                    id: prod
                    env_type_id: production
                    """);
            Map<String, String> ci = Map.of("POLYSTACK_URL", url, "POLYSTACK_TOKEN", ADMIN, "DB_PASSWORD", "s3cret-pw");
            String[] target = {"-f", repo.toString(), "--org", "acme", "--managed-by", "platform-repo"};

            Run missingSecret = cli(
                    Map.of("POLYSTACK_URL", url, "POLYSTACK_TOKEN", ADMIN),
                    concat(new String[] {"config", "apply"}, target));
            assertThat(missingSecret.exit()).as(missingSecret::all).isEqualTo(3);
            assertThat(missingSecret.err())
                    .contains("modules.yaml (document 1)")
                    .contains("${env:DB_PASSWORD} is not set");

            Run planned = cli(ci, concat(new String[] {"config", "plan"}, target));
            assertThat(planned.exit()).as(planned::all).isEqualTo(2);
            assertThat(planned.out())
                    .contains(
                            "+ EnvType production",
                            "+ Module rds",
                            "+ Environment shop/prod",
                            "Plan: 7 to create, 0 to update, 0 to delete, 0 unchanged.");
            RestAssured.given()
                    .baseUri(url)
                    .auth()
                    .oauth2(ADMIN)
                    .get("/api/v1/orgs/acme/env-types")
                    .then()
                    .statusCode(200)
                    .body("items.size()", org.hamcrest.Matchers.equalTo(0));

            // one change the server refuses: nothing of the apply is made
            Path broken =
                    Files.writeString(repo.resolve("broken.yaml"), "kind: RunnerRule\nrunner_id: no-such-runner\n");
            Run refused = cli(ci, concat(new String[] {"config", "apply"}, target));
            assertThat(refused.exit()).as(refused::all).isEqualTo(3);
            assertThat(refused.err())
                    .contains("the batch changed nothing")
                    .contains("/changes/5/body/runner_id")
                    .contains("no-such-runner");
            RestAssured.given()
                    .baseUri(url)
                    .auth()
                    .oauth2(ADMIN)
                    .get("/api/v1/orgs/acme/env-types")
                    .then()
                    .statusCode(200)
                    .body("items.size()", org.hamcrest.Matchers.equalTo(0));
            Files.delete(broken);

            Run applied = cli(ci, concat(new String[] {"config", "apply"}, target));
            assertThat(applied.exit()).as(applied::all).isZero();
            assertThat(applied.out())
                    .contains("created EnvType production", "Applied: 7 created, 0 updated, 0 deleted, 0 unchanged.");
            JsonNode module = JSON.readTree(
                    cli(ci, "api", "GET", "/api/v1/orgs/acme/modules/rds").out());
            assertThat(module.path("managed_by").asText()).isEqualTo("platform-repo");
            assertThat(module.path("secret_inputs").path("password").asText()).isEqualTo("***");
            assertThat(module.path("version").asInt()).isEqualTo(1);

            Run again = cli(ci, concat(new String[] {"config", "apply"}, target));
            assertThat(again.exit()).as(again::all).isZero();
            assertThat(again.out()).contains("Applied: 0 created, 0 updated, 0 deleted, 7 unchanged.");
            assertThat(cli(ci, concat(new String[] {"config", "plan"}, target)).exit())
                    .isZero();

            // a module edit is its next version; the secret stays as it is unless rotated
            Files.writeString(
                    repo.resolve("modules.yaml"),
                    Files.readString(repo.resolve("modules.yaml")).replace("size: small", "size: large"));
            Run bumped = cli(ci, concat(new String[] {"config", "plan"}, target));
            assertThat(bumped.out())
                    .contains("~ Module rds: module_inputs (version 1 -> 2)")
                    .contains("Plan: 0 to create, 1 to update");
            assertThat(cli(ci, concat(new String[] {"config", "apply"}, target)).exit())
                    .isZero();
            assertThat(JSON.readTree(cli(ci, "api", "GET", "/api/v1/orgs/acme/modules/rds")
                                    .out())
                            .path("version")
                            .asInt())
                    .isEqualTo(2);

            // a sync deletes what this configuration manages and no document names; a protected object stays
            // (only kinds the documents still have are synced: an EnvType document stays)
            Files.writeString(
                    repo.resolve("types.yaml"),
                    "kind: EnvType\nid: staging\n---\nkind: ResourceType\nid: postgres\n"
                            + "output_schema: { type: object }\n");
            Files.writeString(
                    repo.resolve("modules.yaml"),
                    Files.readString(repo.resolve("modules.yaml"))
                            .replace("env_type_id: production\n---\nkind: Project", "---\nkind: Project"));
            RestAssured.given()
                    .baseUri(url)
                    .auth()
                    .oauth2(ADMIN)
                    .contentType("application/json")
                    .body(Map.of("id", "by-hand"))
                    .post("/api/v1/orgs/acme/env-types")
                    .then()
                    .statusCode(201);
            Run synced = cli(ci, concat(new String[] {"config", "sync"}, target));
            assertThat(synced.exit()).as(synced::all).isZero();
            assertThat(synced.out())
                    .contains(
                            "created EnvType staging",
                            "deleted EnvType preview",
                            "! EnvType production (protected)",
                            "created ModuleRule (module rds, everything)",
                            "deleted ModuleRule (module rds; env_type_id=production)");
            JsonNode types = JSON.readTree(
                    cli(ci, "get", "env-types", "--org", "acme", "-o", "json").out());
            assertThat(types.findValuesAsText("id")).containsExactlyInAnyOrder("production", "staging", "by-hand");
            problemOf(cli(ci, "api", "DELETE", "/api/v1/orgs/acme/env-types/production"), "is protected");

            // README's three commands as written (platform/ is the repository; they take the objects over under the
            // default name)
            List<String> readme = Readme.block("config-cli")
                    .lines()
                    .map(line -> line.replaceFirst("\\s+#.*$", ""))
                    .toList();
            assertThat(readme).hasSize(3);
            int[] expected = {2, 0, 0};
            for (int i = 0; i < readme.size(); i++) {
                List<String> words =
                        new ArrayList<>(List.of(readme.get(i).trim().split("\\s+")));
                assertThat(words.remove(0)).isEqualTo("cli/polystack");
                words.replaceAll(word -> word.equals("platform/") ? repo.toString() : word);
                Run run = cli(ci, words.toArray(String[]::new));
                assertThat(run.exit()).as(() -> readme + "\n" + run.all()).isEqualTo(expected[i]);
            }
            assertThat(JSON.readTree(cli(ci, "api", "GET", "/api/v1/orgs/acme/modules/rds")
                                    .out())
                            .path("managed_by")
                            .asText())
                    .isEqualTo("polystack-config");
        }
    }

    /**
     * README's configuration-as-code twin of the walkthrough, run as written against one organization,
     * makes the same objects as the walkthrough's API calls make in another.
     */
    @Test
    void theWalkthroughsConfigurationAsCodeMakesWhatItsApiCallsMake() throws Exception {
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            String url = platform.baseUrl();
            RestAssured.given()
                    .baseUri(url)
                    .auth()
                    .oauth2(ADMIN)
                    .contentType("application/json")
                    .body(Map.of("id", "acme", "name", "Acme"))
                    .post("/api/v1/orgs")
                    .then()
                    .statusCode(201);
            Path repository = PlatformProcess.repository();
            String twin = Readme.block("walkthrough-config")
                    .replace(
                            "cli/polystack", repository.resolve("cli/polystack").toString())
                    .replace(
                            "examples/platform",
                            repository.resolve("examples/platform").toString());
            String walkthrough = Readme.block("walkthrough").replaceAll("\\bacme\\b", "acme2");
            Map<String, String> environment = Map.of(
                    "POLYSTACK_URL",
                    url,
                    "POLYSTACK_TOKEN",
                    ADMIN,
                    "PATH",
                    Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
            List<String> expected = List.of(
                    "Applied: 10 created, 0 updated", "", "Applied: 0 created, 0 updated, 0 deleted, 10 unchanged.");
            List<String> scripts = List.of(twin, walkthrough, twin);
            for (int i = 0; i < scripts.size(); i++) {
                String script = scripts.get(i);
                Path log = Files.createTempFile(workspace, "readme", ".log");
                // each in a directory of its own, as its runner key is
                Path dir = Files.createDirectories(workspace.resolve(script == twin ? "twin" : "walkthrough"));
                Process bash = Readme.bash("set -euo pipefail\n" + script, dir, environment, log);
                assertThat(bash.waitFor(5, TimeUnit.MINUTES)).isTrue();
                assertThat(bash.exitValue())
                        .as(() -> script + "\n" + readQuietly(log))
                        .isZero();
                assertThat(readQuietly(log)).contains(expected.get(i));
            }
            for (String kind : List.of(
                    "env-types",
                    "resource-types",
                    "providers",
                    "modules",
                    "module-rules",
                    "runners",
                    "runner-rules",
                    "projects",
                    "projects/shop/envs")) {
                assertThat(comparable(url, "acme2", kind))
                        .as(kind)
                        .isNotEmpty()
                        .isEqualTo(comparable(url, "acme", kind));
            }
        }
    }

    /** An organization's objects of a kind without what differs between any two copies (ids of rules, times, keys, versions). */
    private static List<String> comparable(String url, String org, String kind) throws IOException {
        JsonNode items = JSON.readTree(RestAssured.given()
                        .baseUri(url)
                        .auth()
                        .oauth2(ADMIN)
                        .get("/api/v1/orgs/" + org + "/" + kind)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .path("items");
        List<String> all = new ArrayList<>();
        for (JsonNode item : items) {
            com.fasterxml.jackson.databind.node.ObjectNode copy =
                    (com.fasterxml.jackson.databind.node.ObjectNode) item.deepCopy();
            copy.remove(List.of(
                    "created_at",
                    "updated_at",
                    "version",
                    "managed_by",
                    "public_key",
                    "last_seen_at",
                    "status",
                    "current_jobs"));
            if (kind.endsWith("-rules")) {
                copy.remove("id");
            }
            all.add(copy.toString());
        }
        all.sort(null);
        return all;
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static void problemOf(Run run, String detail) {
        assertThat(run.exit()).as(run::all).isEqualTo(3);
        assertThat(run.all()).contains(detail);
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(workspace.resolve(name), text);
    }

    private static String deploymentOf(String out) {
        Matcher m = DEPLOYMENT.matcher(out);
        assertThat(m.find()).as("a deployment id in: " + out).isTrue();
        return m.group(1);
    }

    private static String log(AgentProcess agent) {
        try {
            return agent.log();
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private Run cli(Map<String, String> environment, String... args) throws Exception {
        return withInput(environment, null, args);
    }

    /** The launcher script, as a user runs it, with only the given variables besides PATH and JAVA_HOME. */
    private Run withInput(Map<String, String> environment, String stdin, String... args) throws Exception {
        Path launcher = PlatformProcess.repository().resolve("cli/polystack");
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = new HashMap<>();
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        env.put("HOME", workspace.resolve("ci-home").toString());
        env.putAll(environment);
        builder.environment().clear();
        builder.environment().putAll(env);
        Path out = Files.createTempFile(workspace, "cli", ".out");
        Path err = Files.createTempFile(workspace, "cli", ".err");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        if (stdin != null) {
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        assertThat(process.waitFor(6, TimeUnit.MINUTES))
                .as("polystack " + String.join(" ", args) + " ended")
                .isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
