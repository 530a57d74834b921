package dev.polystack.tests;

import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The newcomer's path with the real packaged process: first start with the embedded PostgreSQL,
 * the administrator token, the README walkthrough pasted into bash, and a restart that keeps it all.
 */
class EmbeddedControlPlaneIT {

    @TempDir
    Path workspace;

    @Test
    void firstStartWalkthroughAndRestartKeepEverything() throws Exception {
        // A private (0700) parent, like /root when running as root.
        Path home = Files.createDirectory(
                workspace.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path dataDir = home.resolve(".polystack");
        String token;
        try (PlatformProcess platform = new PlatformProcess(dataDir, Map.of()).start()) {
            Path tokenFile = dataDir.resolve("admin-token");
            assertThat(tokenFile).exists();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
                    .isEqualTo("rw-------");
            token = Files.readString(tokenFile).trim();
            assertThat(token).matches("pst_[A-Za-z0-9_-]{43}");
            assertThat(occurrences(platform.log(), token))
                    .as("the token is printed exactly once")
                    .isEqualTo(1);

            String output = runWalkthrough(platform.baseUrl(), token);
            assertThat(output).contains("\"id\":\"acme\"");

            RestAssured.given()
                    .baseUri(platform.baseUrl())
                    .auth()
                    .oauth2(token)
                    .get("/api/v1/orgs/acme/modules/postgres-rds")
                    .then()
                    .statusCode(200)
                    .body("resource_type", equalTo("postgres"));
        }
        try (PlatformProcess again = new PlatformProcess(dataDir, Map.of()).start()) {
            assertThat(Files.readString(dataDir.resolve("admin-token")).trim()).isEqualTo(token);
            assertThat(occurrences(again.log(), "pst_"))
                    .as("no new administrator token on restart")
                    .isEqualTo(1);
            RestAssured.given()
                    .baseUri(again.baseUrl())
                    .auth()
                    .oauth2(token)
                    .get("/api/v1/orgs/acme/runner-rules")
                    .then()
                    .statusCode(200)
                    .body("items[0].runner_id", equalTo("eu-agent"));
            RestAssured.given()
                    .baseUri(again.baseUrl())
                    .auth()
                    .oauth2(token)
                    .get("/api/v1/orgs/acme/providers/aws/default")
                    .then()
                    .statusCode(200)
                    .body("secrets.secret_key", equalTo("***"));
        }
    }

    /** Runs the README's walkthrough block in bash, as a reader would paste it. */
    private String runWalkthrough(String baseUrl, String token) throws Exception {
        Path log = workspace.resolve("walkthrough.log");
        Process process = Readme.bash(
                "set -euo pipefail\n" + Readme.block("walkthrough"),
                workspace,
                Map.of("POLYSTACK_URL", baseUrl, "POLYSTACK_TOKEN", token),
                log);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log);
        assertThat(process.exitValue()).as("walkthrough output:\n" + output).isZero();
        return output;
    }

    private static int occurrences(String text, String needle) {
        int count = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            count++;
        }
        return count;
    }
}
