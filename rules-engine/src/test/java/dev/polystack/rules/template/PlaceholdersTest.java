package dev.polystack.rules.template;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.rules.Problem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PlaceholdersTest {

    @ParameterizedTest(name = "{1} in {0}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "MODULE_INPUT           | ${context.env_id}                    | ok",
                "MODULE_INPUT           | ${context.res_id}                    | ok",
                "PROVIDER_CONFIGURATION | ${context.res_class}                 | ok",
                "MANIFEST               | ${context.project_id}                | ok",
                "MANIFEST               | ${context.res_id}                    | only available in module inputs",
                "MODULE_INPUT           | ${context.region}                    | unknown context field `region`",
                "MODULE_INPUT           | ${context.env_id.x}                  | must name one context field",
                "MODULE_INPUT           | ${resources.net.outputs.subnet_id}   | ok",
                "MODULE_INPUT           | ${resources.net.subnet_id}           | must have the form",
                "MODULE_INPUT           | ${resources.net.outputs}             | must have the form",
                "MODULE_INPUT           | ${shared.dns.outputs.name}           | only available in manifests",
                "MANIFEST               | ${shared.dns.outputs.name}           | ok",
                "MANIFEST               | ${env.HOME}                          | unknown reference root `env`"
            })
    void onlyTheDocumentedRootsAreAllowedWhereTheyAreAllowed(Usage usage, String text, String expected) {
        String problem =
                Placeholders.check(Template.parse(text).placeholders().get(0).reference(), usage);
        if (expected.equals("ok")) {
            assertThat(problem).isNull();
        } else {
            assertThat(problem).contains(expected);
        }
    }

    @org.junit.jupiter.api.Test
    void scanReportsThePathAndPositionOfEachProblem() throws Exception {
        var document = new ObjectMapper().readTree("""
                {"name": "x-${context.nope}", "list": ["ok", "${broken"], "nested": {"key.dot": "${context.env_id}"}}""");
        List<Problem> problems = new ArrayList<>();
        var found = Placeholders.scan(document, "inputs", Usage.MODULE_INPUT, problems);
        assertThat(found)
                .extracting(Placeholders.Found::path)
                .containsExactly("inputs.name", "inputs.nested[\"key.dot\"]");
        assertThat(problems).extracting(Problem::path).containsExactly("inputs.name", "inputs.list[1]");
        assertThat(problems.get(0).message())
                .contains("unknown context field `nope`")
                .contains("position 2");
        assertThat(problems.get(1).message()).contains("unclosed placeholder");
    }
}
