package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.runner.protocol.JobResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TofuJsonTest {

    @Test
    void aReplaceCountsAsOneAddAndOneDestroy() throws Exception {
        JobResult.PlanSummary summary =
                TofuJson.planSummary(TofuJson.read(Fixtures.read("requires-replace.plan.json")));
        assertThat(summary).isEqualTo(new JobResult.PlanSummary(1, 0, 1));
    }

    @Test
    void countsTheChangesOfARecordedPlan() throws Exception {
        JobResult.PlanSummary summary =
                TofuJson.planSummary(TofuJson.read(Fixtures.read("110_sensitive_values.plan.json")));
        assertThat(summary).isEqualTo(new JobResult.PlanSummary(7, 0, 0));
    }

    @Test
    void readsWhichModuleOutputsAreSensitiveFromThePlansConfiguration() throws Exception {
        JsonNode plan = TofuJson.read("""
                {"format_version":"1.2","configuration":{"root_module":{"module_calls":{"main":{"module":{"outputs":{
                  "password":{"sensitive":true,"expression":{"references":["random_password.p"]}},
                  "host":{"expression":{"constant_value":"h"}}}}}}}}}""");
        assertThat(TofuJson.sensitiveModuleOutputs(plan, "main")).containsExactly("password");
        assertThat(TofuJson.sensitiveModuleOutputs(
                        TofuJson.read(Fixtures.read("modules.plan.json")), "module_test_bar"))
                .isEmpty();
    }

    @Test
    void collectsResourcesOfEveryModuleOfARecordedState() throws Exception {
        List<JsonNode> resources = TofuJson.resources(TofuJson.read(Fixtures.read("modules.show.json")));
        assertThat(resources)
                .extracting(r -> r.path("address").asText())
                .containsExactlyInAnyOrder(
                        "module.module_test_bar.test_instance.example",
                        "module.module_test_foo.test_instance.example[0]");
        JsonNode first = resources.stream()
                .filter(r -> r.path("module").asText().equals("module.module_test_foo"))
                .findFirst()
                .orElseThrow();
        assertThat(first.path("type").asText()).isEqualTo("test_instance");
        assertThat(first.path("mode").asText()).isEqualTo("managed");
        assertThat(first.path("provider").asText()).contains("test");
        assertThat(first.has("depends_on")).isTrue();
        assertThat(TofuJson.resources(TofuJson.read(Fixtures.read("empty.show.json"))))
                .isEmpty();
    }

    @Test
    void readsOutputsWithTheirValuesAndTheModulesSensitivity() throws Exception {
        Map<String, JobResult.Output> outputs = TofuJson.outputs(Fixtures.read("output_json_all.json"), Set.of("foo"));
        assertThat(outputs).containsOnlyKeys("bar", "baz", "foo", "foobar");
        assertThat(outputs.get("foo").sensitive()).isTrue();
        assertThat(outputs.get("foo").value().asText()).isEqualTo("secret");
        assertThat(outputs.get("baz").sensitive()).isFalse();
        assertThat(outputs.get("baz").value().path("boop").asInt()).isEqualTo(5);
    }

    @Test
    void refusesAFormatItDoesNotKnow() {
        assertThatThrownBy(() -> TofuJson.read("{\"format_version\":\"2.0\"}"))
                .hasMessageContaining("unsupported format_version 2.0");
    }
}
