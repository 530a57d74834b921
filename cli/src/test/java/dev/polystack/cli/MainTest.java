package dev.polystack.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MainTest {

    @TempDir
    Path home;

    record Result(int exit, String out, String err) {}

    private Result run(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(environment, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(exit, out.toString(), err.toString());
    }

    private Result run(String... args) {
        return run(Map.of("HOME", home.toString()), args);
    }

    @Test
    void everyCommandHasHelpAndTheExitCodesAreDocumented() {
        Result help = run("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out())
                .contains(
                        "deploy",
                        "dry-run",
                        "logs",
                        "get",
                        "outputs",
                        "cancel",
                        "rollback",
                        "destroy",
                        "api",
                        "login",
                        "generate-completion",
                        "0 succeeded, 1 failed, 2 cancelled or timed out, 3 bad input");
        for (String command : new String[] {
            "deploy",
            "dry-run",
            "logs",
            "get",
            "outputs",
            "cancel",
            "rollback",
            "destroy",
            "api",
            "login",
            "context",
            "explain",
            "score"
        }) {
            Result commandHelp = run(command, "--help");
            assertThat(commandHelp.exit()).as(command).isZero();
            assertThat(commandHelp.out()).as(command).contains("Usage: polystack " + command);
        }
    }

    @Test
    void aWrongCommandLineIsBadInputWithASuggestion() {
        Result typo = run("deplyo");
        assertThat(typo.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(typo.err()).contains("deploy");
        assertThat(run("deploy").exit()).isEqualTo(ExitCodes.BAD_INPUT);
        Result kind = run("get", "things", "--env", "a/b/c");
        assertThat(kind.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(kind.err()).contains("unknown kind `things`").contains("deployments");
    }

    @Test
    void withoutASignInTheCommandsSaySoAndExitWithBadInput() {
        Result result = run("get", "projects", "--org", "acme");
        assertThat(result.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("not signed in").contains("POLYSTACK_URL");
    }

    @Test
    void anUnreachableServerIsAFailureNamingTheAddress() {
        Result result = run(
                Map.of("HOME", home.toString(), "POLYSTACK_URL", "http://127.0.0.1:9", "POLYSTACK_TOKEN", "pst_x"),
                "get",
                "projects",
                "--org",
                "acme");
        assertThat(result.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.err()).contains("cannot reach Polystack at http://127.0.0.1:9");
    }

    @Test
    void bashAndZshCompletionIsGenerated() {
        Result completion = run("generate-completion");
        assertThat(completion.exit()).isZero();
        assertThat(completion.out()).contains("complete -F").contains("deploy").contains("compdef");
    }

    @Test
    void contextsAreStoredForTheOwnerOnlyAndTheEnvironmentOverridesThem() throws Exception {
        Path file = Settings.defaultFile(Map.of("HOME", home.toString()));
        Settings settings = Settings.load(file);
        settings.put("work", new Settings.Context("https://polystack.example.com", "pst_secret", "acme/shop/prod"));
        settings.use("work");
        settings.save();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(new ObjectMapper().readTree(file.toFile()).path("current").asText())
                .isEqualTo("work");

        Settings read = Settings.load(file);
        assertThat(read.resolve(null, Map.of()))
                .contains(new Settings.Context("https://polystack.example.com", "pst_secret", "acme/shop/prod"));
        assertThat(read.resolve(null, Map.of("POLYSTACK_URL", "http://ci:8080", "POLYSTACK_TOKEN", "pst_ci")))
                .contains(new Settings.Context("http://ci:8080", "pst_ci", "acme/shop/prod"));
        assertThatThrownBy(() -> read.resolve("home", Map.of()))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("no context `home`");

        Result list = run("context", "list");
        assertThat(list.out()).contains("* work").contains("acme/shop/prod").doesNotContain("pst_secret");
    }

    @Test
    void environmentsAreOrgProjectEnv() {
        assertThat(Target.parse("acme/shop/prod").path()).isEqualTo("/api/v1/orgs/acme/projects/shop/envs/prod");
        assertThatThrownBy(() -> Target.parse("acme/shop")).hasMessageContaining("is not org/project/env");
        assertThatThrownBy(() -> Target.parse("acme/Shop/prod")).hasMessageContaining("`Shop` is not an id");
        assertThatThrownBy(() -> Target.parse(null)).hasMessageContaining("--env");
    }
}
