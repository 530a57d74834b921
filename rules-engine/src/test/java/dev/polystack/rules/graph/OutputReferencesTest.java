package dev.polystack.rules.graph;

import dev.polystack.rules.RulesException;
import dev.polystack.rules.manifest.ManifestParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static dev.polystack.rules.graph.Fixtures.PROD;
import static dev.polystack.rules.graph.Fixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** References are checked against the output schema of the type they point at, when the manifest is submitted. */
class OutputReferencesTest {

    private static final String DB_OUTPUTS = """
            {"type": "object", "properties": {
              "host": {"type": "string"}, "port": {"type": "integer"},
              "replicas": {"type": "array", "items": {"type": "object", "properties": {"host": {"type": "string"}},
                           "additionalProperties": false}},
              "labels": {"type": "object", "additionalProperties": {"type": "string"}},
              "anything": {}}}""";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ${resources.db.outputs.host}                 |
            ${resources.db.outputs.replicas[0].host}     |
            ${resources.db.outputs.labels.team}          |
            ${resources.db.outputs.anything[3].x.y}      |
            ${resources.db.outputs.hots}                 | resource type `postgres` declares no output `hots` (it declares anything, host, labels, port, replicas)
            ${resources.db.outputs.host[0]}              | `host` is a string, not a list
            ${resources.db.outputs.port.value}           | `port` is a number, not an object with `value`
            ${resources.db.outputs.replicas.host}        | `replicas` is a list, not an object with `host`
            ${resources.db.outputs.replicas[0].name}     | `replicas[0]` has no field `name`
            ${resources.db}                              | must have the form ${resources.<alias>.outputs.<name>}
            ${resources.db.host}                         | must have the form
            ${resources.cache.outputs.host}              | resource type `redis` declares no output `host` (it declares no outputs
            """)
    void aManifestReferenceMustNameADeclaredOutputWithAPathThatFitsItsShape(String reference, String problem) {
        Fixtures f = new Fixtures()
                .type("postgres", true, DB_OUTPUTS)
                .type("redis", true, "{}")
                .type("app", true)
                .module("rds", "postgres", "{}", Map.of())
                .module("elasticache", "redis", "{}", Map.of())
                .module(
                        "app",
                        "app",
                        "{}",
                        Map.of(),
                        params("upstream", dev.polystack.rules.ParamType.ANY, true),
                        Map.of());
        String yaml = """
                workloads:
                  shop:
                    resources:
                      db: { type: postgres }
                      cache: { type: redis }
                      api: { type: app, params: { upstream: "%s" } }
                """.formatted(reference);
        // the parser checks the form of a reference, the expander what it names
        RulesException e = catchThrowableOfType(
                RulesException.class,
                () -> new GraphExpander().expand(new ManifestParser().parseYaml(yaml), PROD, f.catalog(), Map.of()));
        if (problem == null) {
            assertThat(e).as(reference).isNull();
        } else {
            assertThat(e).as(reference).isNotNull();
            assertThat(e.problems().get(0).path()).isEqualTo("workloads.shop.resources.api.params.upstream");
            assertThat(e.problems().get(0).message()).contains(problem);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ${resources.db.outputs.host}   |
            ${resources.db.outputs.secret} | declares no output `secret`
            """)
    void workloadOutputsAreCheckedToo(String reference, String problem) {
        Fixtures f = new Fixtures().type("postgres", true, DB_OUTPUTS).module("rds", "postgres", "{}", Map.of());
        var manifest = new ManifestParser().parseYaml("""
                workloads:
                  shop:
                    resources:
                      db: { type: postgres }
                    outputs:
                      DB_HOST: "%s"
                """.formatted(reference));
        RulesException e = catchThrowableOfType(
                RulesException.class, () -> new GraphExpander().expand(manifest, PROD, f.catalog(), Map.of()));
        if (problem == null) {
            assertThat(e).isNull();
        } else {
            assertThat(e.problems().get(0).path()).isEqualTo("workloads.shop.outputs.DB_HOST");
            assertThat(e.problems().get(0).message()).contains(problem);
        }
    }
}
