package dev.polystack.rules.graph;

import dev.polystack.rules.ParamType;
import dev.polystack.rules.Problem;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.manifest.Manifest;
import dev.polystack.rules.manifest.ManifestParser;
import dev.polystack.rules.matching.RunnerMatchRule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.polystack.rules.graph.Fixtures.PROD;
import static dev.polystack.rules.graph.Fixtures.dependency;
import static dev.polystack.rules.graph.Fixtures.params;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GraphExpanderTest {

    private final ManifestParser parser = new ManifestParser();
    private final GraphExpander expander = new GraphExpander();

    private static ResourceIdentity id(String type, String id) {
        return new ResourceIdentity(type, "default", id);
    }

    @Test
    void expandsDependenciesRecursivelyAndMergesEqualIdentities() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .type("redis", true)
                .type("subnet", false)
                .type("vpc", false)
                .module(
                        "rds",
                        "postgres",
                        "{\"subnet\": \"${resources.net.outputs.id}\"}",
                        Map.of("net", dependency("subnet", "shared.subnet")))
                .module(
                        "elasticache",
                        "redis",
                        "{\"subnet\": \"${resources.net.outputs.id}\"}",
                        Map.of("net", dependency("subnet", "shared.subnet")))
                .module(
                        "subnet",
                        "subnet",
                        "{\"vpc\": \"${resources.vpc.outputs.id}\"}",
                        Map.of("vpc", dependency("vpc", "shared.vpc")))
                .module("vpc", "vpc", "{\"cidr\": \"10.0.0.0/16\"}", Map.of());
        Manifest manifest = parser.parseYaml(
                "workloads: { checkout: { resources: { db: { type: postgres }, cache: { type: redis } } } }");

        ResourceGraph graph = expander.expand(manifest, PROD, f.catalog(), Map.of());

        assertThat(graph.nodes()).hasSize(4);
        assertThat(graph.edges())
                .containsExactlyInAnyOrder(
                        new Edge(id("postgres", "checkout.db"), id("subnet", "shared.subnet"), "net"),
                        new Edge(id("redis", "checkout.cache"), id("subnet", "shared.subnet"), "net"),
                        new Edge(id("subnet", "shared.subnet"), id("vpc", "shared.vpc"), "vpc"));
        assertThat(graph.layers())
                .containsExactly(
                        List.of(id("vpc", "shared.vpc")),
                        List.of(id("subnet", "shared.subnet")),
                        List.of(id("redis", "checkout.cache"), id("postgres", "checkout.db")));
        GraphNode db = graph.nodes().get(id("postgres", "checkout.db"));
        assertThat(db.module().id()).isEqualTo("rds");
        assertThat(db.runnerId()).isEqualTo("runner-1");
        assertThat(db.path()).isEqualTo("workloads.checkout.resources.db");
        assertThat(graph.nodes().get(id("vpc", "shared.vpc")).path())
                .isEqualTo("workloads.checkout.resources.cache.dependencies.net.dependencies.vpc");
    }

    @Test
    void aDependencyWithoutAnIdIsPrivateToItsDependent() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .type("password", false)
                .module(
                        "rds",
                        "postgres",
                        "{\"pw\": \"${resources.pw.outputs.value}\"}",
                        Map.of("pw", dependency("password", null)))
                .module("random-password", "password", "{}", Map.of());
        ResourceGraph graph = expander.expand(
                parser.parseYaml("workloads: { a: { resources: { db: { type: postgres } } }, "
                        + "b: { resources: { db: { type: postgres } } } }"),
                PROD,
                f.catalog(),
                Map.of());
        assertThat(graph.nodes().keySet()).contains(id("password", "a.db.pw"), id("password", "b.db.pw"));
    }

    @Test
    void referencesInParamsAreEdgesToo() {
        Fixtures f = new Fixtures()
                .type("app", true)
                .type("dns", true)
                .module("app", "app", "{}", Map.of(), params("host", ParamType.STRING, false), Map.of())
                .module("dns", "dns", "{}", Map.of());
        ResourceGraph graph = expander.expand(parser.parseYaml("""
                workloads:
                  web:
                    resources:
                      app: { type: app, params: { host: "${shared.dns.outputs.name}" } }
                shared:
                  dns: { type: dns }
                """), PROD, f.catalog(), Map.of());
        assertThat(graph.edges())
                .containsExactly(new Edge(id("app", "web.app"), id("dns", "shared.dns"), "shared.dns"));
        assertThat(graph.order()).containsExactly(id("dns", "shared.dns"), id("app", "web.app"));
    }

    /** Regression: every shared resource once held a map of all shared names (10,000² entries, out of memory). */
    @Test
    void tenThousandSharedResourcesReferencingEachOtherExpand() {
        Fixtures f = new Fixtures()
                .type("app", true)
                .module("app", "app", "{}", Map.of(), params("host", ParamType.STRING, true), Map.of());
        StringBuilder yaml = new StringBuilder("shared:\n");
        for (int i = 0; i < 10_000; i++) {
            yaml.append("  r").append(i).append(": { type: app");
            if (i >= 100) {
                yaml.append(", params: { host: \"${shared.r").append(i - 100).append(".outputs.name}\" }");
            }
            yaml.append(" }\n");
        }
        ResourceGraph graph = expander.expand(parser.parseYaml(yaml.toString()), PROD, f.catalog(), Map.of());
        assertThat(graph.nodes()).hasSize(10_000);
        assertThat(graph.edges()).hasSize(9_900);
        assertThat(graph.layers()).hasSize(100);
    }

    @Test
    void aCycleIsAnErrorPrintingItsPath() {
        Fixtures f = new Fixtures()
                .type("a", true)
                .type("b", false)
                .type("c", false)
                .module("a", "a", "{}", Map.of("b", dependency("b", "shared.b")))
                .module("b", "b", "{}", Map.of("c", dependency("c", "shared.c")))
                .module("c", "c", "{}", Map.of("b", dependency("b", "shared.b")));
        assertThatThrownBy(() ->
                        expander.expand(parser.parseYaml("shared: { a: { type: a } }"), PROD, f.catalog(), Map.of()))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining(
                        "dependency cycle: shared.a.dependencies.b → shared.a.dependencies.b.dependencies.c → shared.a.dependencies.b");
    }

    @Test
    void validatesParamsAgainstTheModule() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .module(
                        "rds",
                        "postgres",
                        "{}",
                        Map.of(),
                        params(
                                "version",
                                ParamType.STRING,
                                false,
                                "size",
                                ParamType.NUMBER,
                                true,
                                "tags",
                                ParamType.MAP,
                                true),
                        Map.of());
        assertThatThrownBy(() -> expander.expand(parser.parseYaml("""
                workloads:
                  api:
                    resources:
                      db: { type: postgres, params: { size: "large", tags: [1], colour: red } }
                """), PROD, f.catalog(), Map.of()))
                .isInstanceOf(RulesException.class)
                .satisfies(e -> assertThat(((RulesException) e).problems())
                        .containsExactlyInAnyOrder(
                                new Problem(
                                        "workloads.api.resources.db.params.size", "expected a number, got a string"),
                                new Problem("workloads.api.resources.db.params.tags", "expected a map, got a list"),
                                new Problem(
                                        "workloads.api.resources.db.params.colour",
                                        "unknown param; module `rds` takes size, tags, version"),
                                new Problem(
                                        "workloads.api.resources.db.params.version",
                                        "is required by module `rds` (a string)")));
    }

    @Test
    void aWholeValuePlaceholderParamIsCheckedWhenResolved() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .type("cfg", true)
                .module("rds", "postgres", "{}", Map.of(), params("size", ParamType.NUMBER, false), Map.of())
                .module("cfg", "cfg", "{}", Map.of());
        ResourceGraph graph = expander.expand(parser.parseYaml("""
                workloads:
                  api:
                    resources:
                      cfg: { type: cfg }
                      db: { type: postgres, params: { size: "${resources.cfg.outputs.size}" } }
                """), PROD, f.catalog(), Map.of());
        assertThat(graph.nodes()).hasSize(2);
    }

    @Test
    void rejectsUnknownTypesHiddenTypesAndUnmatchedRules() {
        Fixtures f = new Fixtures().type("vpc", false).type("queue", true);
        assertThatThrownBy(() -> expander.expand(parser.parseYaml("""
                workloads:
                  api:
                    resources:
                      a: { type: nosuch }
                      b: { type: vpc }
                      c: { type: queue }
                """), PROD, f.catalog(), Map.of()))
                .satisfies(e -> assertThat(((RulesException) e).problems())
                        .extracting(Problem::toString)
                        .containsExactlyInAnyOrder(
                                "workloads.api.resources.a.type: unknown resource type `nosuch`",
                                "workloads.api.resources.b.type: resource type `vpc` is not available to developers; only modules may depend on it",
                                "workloads.api.resources.c: no module rule matches type `queue` class `default` id `api.c` in "
                                        + "project `shop`, environment `prod` of type `production`"));
    }

    @Test
    void moduleTemplatesMayOnlyReferenceTheirDependencies() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .provider("aws", "default", "{\"region\": \"${resources.net.outputs.region}\"}")
                .module(
                        "rds",
                        "postgres",
                        "{\"subnet\": \"${resources.net.outputs.id}\", \"x\": \"${context.nope}\"}",
                        Map.of(),
                        Map.of(),
                        Map.of("aws", "aws.default"));
        assertThatThrownBy(() -> expander.expand(
                        parser.parseYaml("shared: { db: { type: postgres } }"), PROD, f.catalog(), Map.of()))
                .satisfies(e -> assertThat(((RulesException) e).problems())
                        .extracting(Problem::message)
                        .anySatisfy(
                                m -> assertThat(m)
                                        .contains(
                                                "unknown reference `${resources.net.outputs.id}`: the module has no dependency `net`"))
                        .anySatisfy(m -> assertThat(m).contains("unknown context field `nope`"))
                        .anySatisfy(
                                m -> assertThat(m).contains("unknown reference `${resources.net.outputs.region}`")));
    }

    @Test
    void aProvisionedResourceKeepsItsRunner() {
        Fixtures f = new Fixtures().type("postgres", true).module("rds", "postgres", "{}", Map.of());
        f.runnerRules.add(new RunnerMatchRule("specific", "runner-2", null, null, "prod", null, null));
        Manifest manifest = parser.parseYaml("shared: { db: { type: postgres }, db2: { type: postgres } }");
        ResourceGraph graph =
                expander.expand(manifest, PROD, f.catalog(), Map.of(id("postgres", "shared.db"), "runner-1"));
        assertThat(graph.nodes().get(id("postgres", "shared.db")).runnerId()).isEqualTo("runner-1");
        assertThat(graph.nodes().get(id("postgres", "shared.db")).runnerRuleId())
                .isNull();
        assertThat(graph.nodes().get(id("postgres", "shared.db2")).runnerId()).isEqualTo("runner-2");
    }

    @Test
    void aParamCannotOverrideAModuleInput() {
        Fixtures f = new Fixtures()
                .type("postgres", true)
                .module(
                        "rds",
                        "postgres",
                        "{\"name\": \"fixed\"}",
                        Map.of(),
                        params("name", ParamType.STRING, true),
                        Map.of());
        assertThatThrownBy(() -> expander.expand(
                        parser.parseYaml("shared: { db: { type: postgres, params: { name: x } } }"),
                        PROD,
                        f.catalog(),
                        Map.of()))
                .hasMessageContaining("shared.db.params.name: module `rds` sets this input itself");
    }
}
