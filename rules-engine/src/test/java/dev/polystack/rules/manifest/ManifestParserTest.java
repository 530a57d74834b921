package dev.polystack.rules.manifest;

import dev.polystack.rules.Problem;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ManifestParserTest {

    private final ManifestParser parser = new ManifestParser();

    @Test
    void parsesTheArchitectureExampleWithDefaults() {
        Manifest manifest = parser.parseYaml("""
                workloads:
                  checkout:
                    resources:
                      db:
                        type: postgres
                        class: standard
                        params: { version: "16" }
                      cache: { type: redis }
                    outputs:
                      DATABASE_HOST: ${resources.db.outputs.host}
                      DNS_NAME: ${shared.dns.outputs.hostname}
                shared:
                  dns: { type: dns }
                """);
        assertThat(manifest.resources().keySet())
                .containsExactly(
                        new ResourceIdentity("dns", "default", "shared.dns"),
                        new ResourceIdentity("redis", "default", "checkout.cache"),
                        new ResourceIdentity("postgres", "standard", "checkout.db"));
        assertThat(manifest.workloads()
                        .get("checkout")
                        .resources()
                        .get("db")
                        .params()
                        .get("version")
                        .asText())
                .isEqualTo("16");
    }

    @Test
    void jsonManifestsWorkToo() {
        Manifest manifest = parser.parseJson("{\"shared\": {\"dns\": {\"type\": \"dns\", \"id\": \"global-dns\"}}}");
        assertThat(manifest.resources()).containsKey(new ResourceIdentity("dns", "default", "global-dns"));
    }

    @Test
    void equalIdentitiesAreOneResource() {
        Manifest manifest = parser.parseYaml("""
                workloads:
                  a: { resources: { db: { type: postgres, id: main-db, params: { size: 2 } } } }
                  b: { resources: { database: { type: postgres, id: main-db, params: { size: 2 } } } }
                """);
        assertThat(manifest.requests()).hasSize(2);
        assertThat(manifest.resources()).hasSize(1);
    }

    @Test
    void equalIdentitiesMustAgreeOnParams() {
        assertThatThrownBy(() -> parser.parseYaml("""
                workloads:
                  a: { resources: { db: { type: postgres, id: main-db, params: { size: 2 } } } }
                  b: { resources: { db: { type: postgres, id: main-db, params: { size: 3 } } } }
                """))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining(
                        "workloads.b.resources.db.params: declares the same resource (postgres/default/main-db) as workloads.a.resources.db");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "workloads: { api: { resources: { db: { class: ha } } } }                       | workloads.api.resources.db.type                | is required",
                "workloads: { api: { resources: { db: { type: 5 } } } }                         | workloads.api.resources.db.type                | expected a string",
                "workloads: { api: { resources: { db: { type: Postgres } } } }                  | workloads.api.resources.db.type                | expected a resource type id",
                "workloads: { api: { resources: { db: { type: pg, class: 'A B' } } } }          | workloads.api.resources.db.class               | expected a lowercase class name",
                "workloads: { api: { resources: { db: { type: pg, id: 'x y' } } } }             | workloads.api.resources.db.id                  | expected a resource id",
                "workloads: { api: { resources: { db: { type: pg, params: [1] } } } }           | workloads.api.resources.db.params              | expected a map",
                "workloads: { api: { resources: { db: { type: pg, size: 1 } } } }               | workloads.api.resources.db.size                | unknown field",
                "workloads: { api: { resources: { Db: { type: pg } } } }                        | workloads.api.resources.Db                     | an alias must be",
                "workloads: { API: { resources: {} } }                                          | workloads.API                                  | a workload name must be",
                "workloads: { api: { resource: {} } }                                           | workloads.api.resource                         | unknown field",
                "workloads: [1]                                                                 | workloads                                      | expected a map",
                "services: {}                                                                   | services                                       | unknown field",
                "workloads: { api: { outputs: { X: '${resources.db.outputs.host}' } } }         | workloads.api.outputs.X                        | the workload has no resource `db`",
                "workloads: { api: { outputs: { X: '${shared.dns.outputs.name}' } } }           | workloads.api.outputs.X                        | there is no shared resource `dns`",
                "workloads: { api: { outputs: { X: '${context.res_id}' } } }                    | workloads.api.outputs.X                        | only available in module inputs",
                "workloads: { api: { resources: { db: { type: pg, params: { v: '${oops' } } } } } | workloads.api.resources.db.params.v          | unclosed placeholder",
                "shared: { dns: { type: dns, params: { x: '${resources.a.outputs.b}' } } }      | shared.dns.params.x                            | only reference other shared resources"
            })
    void namesThePathOfEveryProblem(String yaml, String path, String message) {
        assertThatThrownBy(() -> parser.parseYaml(yaml))
                .isInstanceOf(RulesException.class)
                .satisfies(e -> assertThat(((RulesException) e).problems()).anySatisfy(p -> {
                    assertThat(p.path()).isEqualTo(path);
                    assertThat(p.message()).contains(message);
                }));
    }

    @Test
    void reportsEveryProblemNotJustTheFirst() {
        assertThatThrownBy(() -> parser.parseYaml("""
                workloads:
                  api:
                    resources:
                      a: { class: x }
                      b: { type: 1 }
                """))
                .isInstanceOf(RulesException.class)
                .satisfies(e -> assertThat(((RulesException) e).problems())
                        .extracting(Problem::path)
                        .containsExactlyInAnyOrder("workloads.api.resources.a.type", "workloads.api.resources.b.type"));
    }

    @Test
    void enforcesLimits() {
        ManifestParser small = new ManifestParser(new ManifestLimits(2, 1));
        assertThatThrownBy(() -> small.parseYaml("shared: { a: { type: t }, b: { type: t }, c: { type: t } }"))
                .hasMessageContaining("declares 3 resources; the limit is 2");
        assertThatThrownBy(() -> small.parseYaml("shared: { a: { type: t, params: { x: 1, y: 2 } } }"))
                .hasMessageContaining("shared.a.params: 2 params; the limit is 1");
    }

    @Test
    void unreadableYamlSaysWhere() {
        assertThatThrownBy(() -> parser.parseYaml("workloads:\n  api: [\n"))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("cannot be read at line");
    }

    @Test
    void yamlAliasesAreRefusedNotReadAsTheirName() {
        // Jackson reads `*v` as the string "v": the second db would silently get version "v"
        assertThatThrownBy(() -> parser.parseYaml("""
                workloads:
                  api:
                    resources:
                      db: { type: postgres, params: { version: &v "16" } }
                      db2: { type: postgres, params: { version: *v } }
                """))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("YAML aliases are not supported: `*v` at line 5");
        assertThatThrownBy(() -> parser.parseYaml("shared:\n  *x : { type: vpc }\n"))
                .hasMessageContaining("YAML aliases are not supported")
                .hasMessageNotContaining("org.yaml");
    }

    @Test
    void anAliasBombIsRefusedAtOnce() {
        StringBuilder bomb = new StringBuilder("workloads:\n  api:\n    outputs:\n      l0: &l0 \"lol\"\n");
        for (int i = 1; i <= 9; i++) {
            bomb.append("      l")
                    .append(i)
                    .append(": &l")
                    .append(i)
                    .append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(9, "*l" + (i - 1))))
                    .append("]\n");
        }
        // refused at its first alias (line 5), before anything is expanded: 9^9 copies would not fit in the heap.
        // The timeout only stops a parser that expands from hanging the build; it is not a speed figure
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> assertThatThrownBy(() -> parser.parseYaml(bomb.toString()))
                        .hasMessageContaining("YAML aliases are not supported: `*l0` at line 5"));
    }

    @Test
    void duplicateKeysAreRefusedNotOverwritten() {
        assertThatThrownBy(() -> parser.parseYaml("shared:\n  a: { type: vpc }\nshared:\n  b: { type: vpc }\n"))
                .hasMessageContaining("cannot be read at line 3")
                .hasMessageContaining("Duplicate field 'shared'");
        assertThatThrownBy(() -> parser.parseJson("{\"shared\": {\"a\": {\"type\": \"vpc\", \"type\": \"dns\"}}}"))
                .hasMessageContaining("Duplicate field 'type'");
    }

    @Test
    void aSecondDocumentOrTrailingJsonIsRefusedNotIgnored() {
        assertThatThrownBy(() -> parser.parseYaml("shared:\n  a: { type: vpc }\n---\nshared:\n  b: { type: dns }\n"))
                .hasMessageContaining("a manifest is one YAML document, but another starts at line 4");
        assertThatThrownBy(() -> parser.parseJson("{\"shared\": {}} {\"workloads\": {}}"))
                .hasMessageContaining("there is more after the manifest");
        // document markers around one document are fine
        assertThat(parser.parseYaml("---\nshared:\n  a: { type: vpc }\n...\n").resources())
                .hasSize(1);
        assertThat(parser.parseYaml("shared:\n  a: { type: vpc }\n---\n").resources())
                .hasSize(1);
    }

    @Test
    void aYamlLineLongerThan64KiBIsRefusedBeforeTheYamlReaderMeetsIt() {
        String longLine =
                "shared:\n  a: { type: vpc, params: { v: \"" + "x".repeat(ManifestParser.MAX_YAML_LINE) + "\" } }\n";
        assertThatThrownBy(() -> parser.parseYaml(longLine))
                .hasMessageContaining("line 2 is longer than 65536 characters");
        assertThat(ManifestParser.firstLongLine("a\n" + "x".repeat(ManifestParser.MAX_YAML_LINE) + "\nb"))
                .isZero();
        // the same value as JSON is read by Jackson's JSON parser in linear time
        String json = "{\"shared\": {\"a\": {\"type\": \"vpc\", \"params\": {\"v\": \""
                + "x".repeat(ManifestParser.MAX_YAML_LINE + 10) + "\"}}}}";
        assertThat(parser.parseJson(json).resources()).hasSize(1);
    }

    @Test
    void deepNestingIsRefusedWithoutNamingTheParsersInternals() {
        String deep = "shared: { a: { type: vpc, params: { x: " + "[".repeat(5_000) + "]".repeat(5_000) + " } } }";
        assertThatThrownBy(() -> parser.parseYaml(deep))
                .hasMessageContaining("nesting depth")
                .hasMessageNotContaining("StreamReadConstraints");
        assertThatThrownBy(() -> parser.parseJson(deep.replace("shared: { a: { type: vpc, params: { x: ", "{\"x\": ")
                        .replace(" } } }", "}")))
                .hasMessageContaining("nesting depth");
    }

    @Test
    void anEmptyManifestIsValid() {
        assertThat(parser.parseYaml("").resources()).isEmpty();
    }
}
