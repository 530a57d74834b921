package dev.polystack.tests;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A new user's first deployment, exactly as the README tells it: the walkthrough and the "Deploying"
 * blocks pasted into bash against the packaged control plane, and the agent started with the README's
 * own command, which finds the real {@code tofu} or {@code terraform} on the PATH by itself. The
 * machine's environment stays as it is (on the build machines Terraform warns on stderr about a CLI
 * configuration file that does not exist).
 */
class ReadmeDeployIT {

    private static final String ADMIN = "pst_readme-admin-token-0123456789abcdefghijklmnopqrs";

    @TempDir
    Path workspace;

    @Test
    void theDeployingSectionSucceedsAsWrittenWithOutputsFlowingBetweenResources() throws Exception {
        Path binary = Readme.realBinaryOrSkip("ReadmeDeployIT");
        Path home = Files.createDirectories(workspace.resolve("home"));
        try (PlatformProcess platform = new PlatformProcess(
                        home.resolve(".polystack"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            url = platform.baseUrl();
            Map<String, String> environment =
                    Map.of("POLYSTACK_URL", platform.baseUrl(), "POLYSTACK_TOKEN", ADMIN, "HOME", home.toString());
            // the README's paths are relative to the repository: the reader's shell stands there
            Files.createSymbolicLink(
                    workspace.resolve("runner-agent"),
                    PlatformProcess.repository().resolve("runner-agent"));
            Files.createSymbolicLink(
                    workspace.resolve("cli"), PlatformProcess.repository().resolve("cli"));

            Path walkthroughLog = workspace.resolve("walkthrough.log");
            Process walkthrough = Readme.bash(
                    "set -euo pipefail\n" + Readme.block("walkthrough"), workspace, environment, walkthroughLog);
            assertThat(walkthrough.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(walkthrough.exitValue())
                    .as(() -> "walkthrough:\n" + read(walkthroughLog))
                    .isZero();

            Path agentLog = workspace.resolve("agent.log");
            Process agent = Readme.bash("exec " + Readme.block("deploy-agent"), workspace, environment, agentLog);
            try {
                // the walkthrough's functions and variables are the reader's shell's; the deploy block continues it
                String walkthroughHead =
                        Readme.block("walkthrough").lines().limit(3).reduce("", (a, b) -> a + b + "\n");
                Path deployLog = workspace.resolve("deploy.log");
                Process deploy = Readme.bash(
                        "set -euo pipefail\n" + walkthroughHead + Readme.block("deploy"),
                        workspace,
                        environment,
                        deployLog);
                boolean ended = deploy.waitFor(8, TimeUnit.MINUTES);
                String output = read(deployLog);
                assertThat(ended)
                        .as(() -> "the deploy block did not end:\n" + output + "\nagent:\n" + read(agentLog))
                        .isTrue();
                assertThat(deploy.exitValue())
                        .as(() -> "deploy block:\n" + output + "\nagent:\n" + read(agentLog))
                        .isZero();
                assertThat(output).contains("\"status\":\"succeeded\"");

                String agentOutput = read(agentLog);
                String product = binary.getFileName().toString().equals("tofu") ? "OpenTofu" : "Terraform";
                assertThat(agentOutput)
                        .as("the agent names the binary it found")
                        .containsPattern(product + " \\d+\\.\\d+\\.\\d+ at `"
                                + java.util.regex.Pattern.quote(binary.toString()) + "`");

                // the vpc's subnet_id flowed into the database's inputs: read back from the stored state
                JsonPath graph = api().queryParam("outputs", true)
                        .get("/api/v1/orgs/acme/projects/shop/envs/prod/resource-graph")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath();
                String subnet = graph.getString("nodes.find { it.type == 'vpc' }.outputs.subnet_id");
                assertThat(subnet).startsWith("subnet-").hasSizeGreaterThan("subnet-".length());
                assertThat(graph.getString("nodes.find { it.type == 'postgres' }.outputs.host"))
                        .isEqualTo("prod-checkout.db.db.internal");
                assertThat(graph.getInt("nodes.find { it.type == 'postgres' }.outputs.port"))
                        .isEqualTo(5432);
                String versions =
                        "/api/v1/orgs/acme/projects/shop/envs/prod/state/postgres/default/checkout.db/versions";
                String latest =
                        api().get(versions).then().statusCode(200).extract().path("items[0].id");
                assertThat(api().get(versions + "/" + latest)
                                .then()
                                .statusCode(200)
                                .extract()
                                .asString())
                        .contains(subnet);

                // the CLI's twin of the deploy block: the same manifest again, waited for, with its outputs
                Path cliLog = workspace.resolve("deploy-cli.log");
                Process cli =
                        Readme.bash("set -euo pipefail\n" + Readme.block("deploy-cli"), workspace, environment, cliLog);
                assertThat(cli.waitFor(5, TimeUnit.MINUTES))
                        .as(() -> "the deploy-cli block did not end:\n" + read(cliLog))
                        .isTrue();
                assertThat(cli.exitValue())
                        .as(() -> "deploy-cli block:\n" + read(cliLog) + "\nagent:\n" + read(agentLog))
                        .isZero();
                assertThat(read(cliLog)).contains("succeeded", "Outputs:", "prod-checkout.db.db.internal");
            } finally {
                agent.destroy();
                if (!agent.waitFor(60, TimeUnit.SECONDS)) {
                    agent.destroyForcibly();
                }
            }
        }
    }

    private String url;

    private RequestSpecification api() {
        return RestAssured.given().baseUri(url).auth().oauth2(ADMIN);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (java.io.IOException e) {
            return "(" + e.getMessage() + ")";
        }
    }
}
