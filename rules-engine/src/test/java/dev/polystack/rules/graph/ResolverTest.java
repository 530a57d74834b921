package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ParamType;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.manifest.ManifestParser;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static dev.polystack.rules.graph.Fixtures.PROD;
import static dev.polystack.rules.graph.Fixtures.dependency;
import static dev.polystack.rules.graph.Fixtures.json;
import static dev.polystack.rules.graph.Fixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResolverTest {

    private static final ResourceIdentity NET = new ResourceIdentity("vpc", "default", "shared.vpc");
    private static final ResourceIdentity DB = new ResourceIdentity("postgres", "default", "api.db");

    private ResourceGraph graph() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .type("vpc", false)
                .provider(
                        "aws", "default", "{\"region\": \"eu-west-1\", \"token\": \"${resources.net.outputs.token}\"}")
                .module(
                        "rds",
                        "postgres",
                        """
                        {"name": "${context.env_id}-${context.res_id}",
                         "port": "${resources.net.outputs.port}",
                         "url": "postgres://${resources.net.outputs.host}:${resources.net.outputs.port}/db",
                         "first": "${resources.net.outputs.endpoints[0].host}",
                         "dotted": "${resources.net.outputs[\\"key.with.dots\\"]}",
                         "literal": "$${not.a.placeholder}",
                         "nested": {"list": ["${resources.net.outputs.password}", 1]}}""",
                        Map.of("net", dependency("vpc", "shared.vpc")),
                        params("size", ParamType.NUMBER, true),
                        Map.of("aws", "aws.default"))
                .module("vpc", "vpc", "{}", Map.of());
        return new GraphExpander()
                .expand(
                        new ManifestParser()
                                .parseYaml(
                                        "workloads: { api: { resources: { db: { type: postgres, params: { size: 3 } } } } }"),
                        PROD,
                        f.catalog(),
                        Map.of());
    }

    private static Outputs netOutputs() {
        ObjectNode values = json("""
                {"port": 5432, "host": "10.0.0.1", "endpoints": [{"host": "a.internal"}], "key.with.dots": true,
                 "password": "s3cret", "token": "t0ken"}""");
        return new Outputs(values, Set.of("password", "token"));
    }

    @Test
    void resolvesWholeValuesWithTheirTypeAndEmbeddedOnesAsText() {
        Resolution resolution =
                Resolver.resolve(graph().nodes().get(DB), PROD, id -> id.equals(NET) ? netOutputs() : null, false);
        ObjectNode inputs = resolution.inputs();
        assertThat(inputs.get("name").textValue()).isEqualTo("prod-api.db");
        assertThat(inputs.get("port").isInt()).isTrue();
        assertThat(inputs.get("port").intValue()).isEqualTo(5432);
        assertThat(inputs.get("url").textValue()).isEqualTo("postgres://10.0.0.1:5432/db");
        assertThat(inputs.get("first").textValue()).isEqualTo("a.internal");
        assertThat(inputs.get("dotted").booleanValue()).isTrue();
        assertThat(inputs.get("literal").textValue()).isEqualTo("${not.a.placeholder}");
        assertThat(inputs.get("size").intValue()).isEqualTo(3);
        assertThat(inputs.at("/nested/list/0").textValue()).isEqualTo("s3cret");
        assertThat(resolution.isComplete()).isTrue();
    }

    @Test
    void anInputThatUsesASensitiveOutputIsSensitive() {
        Resolution resolution = Resolver.resolve(graph().nodes().get(DB), PROD, id -> netOutputs(), false);
        assertThat(resolution.sensitiveInputs()).containsExactly("nested");
        assertThat(resolution.providerConfigurations().get("aws").get("token").textValue())
                .isEqualTo("t0ken");
        assertThat(resolution.sensitiveProviderFields()).containsExactly("aws.token");
    }

    @Test
    void lenientResolutionMarksWhatIsNotKnownYet() {
        Resolution resolution = Resolver.resolve(graph().nodes().get(DB), PROD, id -> null, true);
        assertThat(resolution.unknown())
                .contains("port", "url", "nested", "aws.token")
                .doesNotContain("name", "size");
        assertThat(resolution.inputs().get("port").textValue()).isEqualTo("${resources.net.outputs.port}");
    }

    @Test
    void strictResolutionFailsOnWhatIsNotKnownOrMissing() {
        assertThatThrownBy(() -> Resolver.resolve(graph().nodes().get(DB), PROD, id -> null, false))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("the outputs of vpc/default/shared.vpc are not known yet");
        Outputs partial = new Outputs(json("{\"port\": 1}"), Set.of());
        assertThatThrownBy(() -> Resolver.resolve(graph().nodes().get(DB), PROD, id -> partial, false))
                .hasMessageContaining("has no output `host`");
    }
}
