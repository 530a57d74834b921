package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.cli.ConfigPlan.Action;
import dev.polystack.cli.ConfigPlan.Change;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigPlanTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<ConfigDocuments.Desired> read(String yaml, Map<String, String> environment) throws IOException {
        Path file = Files.writeString(dir.resolve("platform.yaml"), yaml);
        return ConfigDocuments.read(List.of(file.toString()), environment::get);
    }

    private static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    private static Change only(ConfigPlan plan, ConfigKind kind) {
        return plan.changes().stream().filter(c -> c.kind() == kind).findFirst().orElseThrow();
    }

    @Test
    void documentsAreReadInCreationOrderWithSecretsFromTheEnvironment() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "variable \"size\" {}\n");
        List<ConfigDocuments.Desired> documents = read("""
                kind: Module
                id: rds
                resource_type: postgres
                module_source: inline
                module_source_code_file: main.tf
                secret_inputs: { password: "${env:DB_PASSWORD}" }
                module_inputs: { name: "${context.env.id}-db" }
                ---
                kind: EnvType
                id: production
                """, Map.of("DB_PASSWORD", "s3cret"));
        assertThat(documents)
                .extracting(ConfigDocuments.Desired::kind)
                .containsExactly(ConfigKind.ENV_TYPE, ConfigKind.MODULE);
        JsonNode module = documents.get(1).object();
        assertThat(module.path("secret_inputs").path("password").asText()).isEqualTo("s3cret");
        assertThat(module.path("module_inputs").path("name").asText())
                .as("other placeholders are the server's")
                .isEqualTo("${context.env.id}-db");
        assertThat(module.path("module_source_code").asText()).contains("variable \"size\"");
        assertThat(module.has("kind")).isFalse();
    }

    @Test
    void badDocumentsAreNamedBeforeAnythingIsSent() {
        assertThatThrownBy(
                        () -> read("kind: Module\nid: rds\nsecret_inputs: { password: \"${env:NOPE}\" }\n", Map.of()))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("(document 1)")
                .hasMessageContaining("${env:NOPE} is not set");
        assertThatThrownBy(() -> read("kind: EnvType\nid: a\n---\nkind: Gadget\nid: b\n", Map.of()))
                .hasMessageContaining("(document 2)")
                .hasMessageContaining("unknown kind `Gadget`");
        assertThatThrownBy(() -> read("kind: EnvType\nid: a\ndescripton: typo\n", Map.of()))
                .hasMessageContaining("no field `descripton`");
        assertThatThrownBy(() -> read("kind: EnvType\nid: a\nmanaged_by: me\n", Map.of()))
                .hasMessageContaining("--managed-by");
        assertThatThrownBy(() -> read("kind: Project\nname: Shop\n", Map.of())).hasMessageContaining("needs `id`");
        assertThatThrownBy(() -> read("kind: EnvType\nid: a\n---\nkind: EnvType\nid: a\n", Map.of()))
                .hasMessageContaining("(document 2)")
                .hasMessageContaining("also defined in")
                .hasMessageContaining("(document 1)");
        assertThatThrownBy(() -> read("kind: EnvType\nid: [unclosed\n", Map.of()))
                .hasMessageContaining("not valid YAML");
        assertThat(catchExit(() -> read("kind: Project\n", Map.of()))).isEqualTo(ExitCodes.BAD_INPUT);
    }

    private static int catchExit(ThrowingRunnable body) {
        try {
            body.run();
            return ExitCodes.OK;
        } catch (CliException e) {
            return e.exitCode();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void onlyWhatDiffersIsAnUpdateAndAModuleChangeNamesItsNextVersion() throws IOException {
        List<ConfigDocuments.Desired> documents = read("""
                kind: Runner
                id: r1
                public_key: "-----BEGIN PUBLIC KEY-----\\nABC\\n-----END PUBLIC KEY-----"
                max_concurrent_jobs: 4
                ---
                kind: Module
                id: rds
                resource_type: postgres
                module_source: inline
                module_source_code: "# v2"
                secret_inputs: { password: x }
                ---
                kind: EnvType
                id: production
                protected: true
                """, Map.of());
        Map<ConfigKind, List<JsonNode>> current = new EnumMap<>(ConfigKind.class);
        current.put(ConfigKind.RUNNER, List.of(json("""
                {"id":"r1","public_key":"-----BEGIN PUBLIC KEY-----\\nABC\\n-----END PUBLIC KEY-----\\n","max_concurrent_jobs":4.0,
                 "managed_by":"git","protected":false,"version":3}""")));
        current.put(ConfigKind.MODULE, List.of(json("""
                {"id":"rds","resource_type":"postgres","module_source":"inline","module_source_code":"# v1","secret_inputs":{"password":"***"},
                 "managed_by":"git","protected":false,"version":7}""")));
        ConfigPlan plan = ConfigPlan.of(documents, current, "git", false, false, false);
        assertThat(only(plan, ConfigKind.RUNNER).action())
                .as("same key without its line breaks, 4 = 4.0")
                .isEqualTo(Action.UNCHANGED);
        Change module = only(plan, ConfigKind.MODULE);
        assertThat(module.action()).isEqualTo(Action.UPDATE);
        assertThat(module.fields()).containsExactly("module_source_code");
        assertThat(module.line()).isEqualTo("~ Module rds: module_source_code (version 7 -> 8)");
        assertThat(only(plan, ConfigKind.ENV_TYPE).action()).isEqualTo(Action.CREATE);
        assertThat(plan.summary()).isEqualTo("Plan: 1 to create, 1 to update, 0 to delete, 1 unchanged.");

        JsonNode body = ConfigPlan.body(module, "git", false);
        assertThat(body.path("secret_inputs").path("password").asText())
                .as("a stored secret is kept, never re-sent")
                .isEqualTo("***");
        assertThat(body.path("version").asInt()).isEqualTo(7);
        assertThat(body.path("managed_by").asText()).isEqualTo("git");
        assertThat(body.has("id"))
                .as("names are in the path; updates do not take them")
                .isFalse();
        assertThat(ConfigPlan.body(module, "git", true)
                        .path("secret_inputs")
                        .path("password")
                        .asText())
                .isEqualTo("x");
        assertThat(ConfigPlan.of(documents, current, "git", false, true, false).changes())
                .filteredOn(c -> c.kind() == ConfigKind.MODULE)
                .singleElement()
                .extracting(Change::fields)
                .asList()
                .contains("secret_inputs (values sent again)");
        assertThat(ConfigPlan.of(documents, current, "other", false, false, false)
                        .changes())
                .filteredOn(c -> c.kind() == ConfigKind.RUNNER)
                .singleElement()
                .extracting(Change::line)
                .isEqualTo("~ Runner r1: managed_by (was git)");
    }

    @Test
    void aSyncDeletesOnlyWhatItManagesAndNeverWhatIsProtected() throws IOException {
        List<ConfigDocuments.Desired> documents = read(
                "kind: Project\nid: shop\nname: Shop\n---\nkind: Environment\nproject_id: shop\n"
                        + "id: prod\nenv_type_id: production\n",
                Map.of());
        Map<ConfigKind, List<JsonNode>> current = new EnumMap<>(ConfigKind.class);
        current.put(
                ConfigKind.PROJECT,
                List.of(
                        json("{\"id\":\"shop\",\"name\":\"Shop\",\"managed_by\":\"git\",\"protected\":false}"),
                        json("{\"id\":\"old\",\"name\":\"Old\",\"managed_by\":\"git\",\"protected\":false}"),
                        json("{\"id\":\"kept\",\"name\":\"Kept\",\"managed_by\":\"git\",\"protected\":true}"),
                        json("{\"id\":\"theirs\",\"name\":\"Theirs\",\"managed_by\":\"team-b\",\"protected\":false}"),
                        json("{\"id\":\"by-hand\",\"name\":\"By hand\",\"protected\":false}")));
        current.put(
                ConfigKind.ENVIRONMENT,
                List.of(
                        json(
                                "{\"id\":\"prod\",\"project_id\":\"shop\",\"env_type_id\":\"production\",\"managed_by\":\"git\",\"protected\":false}"),
                        json(
                                "{\"id\":\"dev\",\"project_id\":\"old\",\"env_type_id\":\"development\",\"managed_by\":\"git\",\"protected\":false}")));

        ConfigPlan apply = ConfigPlan.of(documents, current, "git", false, false, false);
        assertThat(apply.changes()).extracting(Change::action).containsOnly(Action.UNCHANGED);
        assertThat(apply.changesSomething()).isFalse();

        ConfigPlan sync = ConfigPlan.of(documents, current, "git", true, false, false);
        assertThat(sync.changes())
                .filteredOn(c -> c.action() != Action.UNCHANGED)
                .extracting(Change::line)
                .containsExactly(
                        "! Environment old/dev (deleting an environment destroys its resources: add --allow-destroy)",
                        "- Project old",
                        "! Project kept (protected)");
        assertThat(ConfigPlan.of(documents, current, "git", true, false, true).changes())
                .extracting(Change::line)
                .contains("- Environment old/dev", "- Project old");
    }

    @Test
    void aRuleIsKnownByItsCriteriaAndAProtectedOneIsNeverReplaced() throws IOException {
        List<ConfigDocuments.Desired> documents = read("""
                kind: ModuleRule
                module_id: aurora
                env_type_id: production
                ---
                kind: RunnerRule
                runner_id: r1
                protected: true
                """, Map.of());
        Map<ConfigKind, List<JsonNode>> current = new EnumMap<>(ConfigKind.class);
        current.put(
                ConfigKind.MODULE,
                List.of(
                        json("{\"id\":\"rds\",\"resource_type\":\"postgres\"}"),
                        json("{\"id\":\"aurora\",\"resource_type\":\"postgres\"}")));
        current.put(
                ConfigKind.MODULE_RULE,
                List.of(json("{\"id\":\"m-1\",\"module_id\":\"rds\",\"env_type_id\":\"production\","
                        + "\"managed_by\":\"git\",\"protected\":false}")));
        current.put(
                ConfigKind.RUNNER_RULE,
                List.of(json("{\"id\":\"r-1\",\"runner_id\":\"r1\",\"managed_by\":\"git\",\"protected\":false}")));
        ConfigPlan plan = ConfigPlan.of(documents, current, "git", true, false, false);
        assertThat(only(plan, ConfigKind.MODULE_RULE).line())
                .isEqualTo(
                        "-/+ ModuleRule (module aurora; env_type_id=production): module_id (replaces rule m-1 of rds)");
        Change runnerRule = only(plan, ConfigKind.RUNNER_RULE);
        assertThat(runnerRule.line()).isEqualTo("~ RunnerRule (runner r1, everything): protected");
        assertThat(ConfigPlan.body(runnerRule, "git", false))
                .isEqualTo(json("{\"managed_by\":\"git\",\"protected\":true}"));

        current.put(
                ConfigKind.MODULE_RULE,
                List.of(json("{\"id\":\"m-1\",\"module_id\":\"rds\",\"env_type_id\":\"production\","
                        + "\"managed_by\":\"git\",\"protected\":true}")));
        ConfigPlan blocked = ConfigPlan.of(documents, current, "git", true, false, false);
        assertThat(blocked.count(Action.BLOCKED)).isEqualTo(1);
        assertThat(blocked.summary()).endsWith("1 blocked: nothing will be applied.");
    }
}
