package dev.polystack.rules.benchmark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ParamType;
import dev.polystack.rules.graph.Catalog;
import dev.polystack.rules.graph.DependencySpec;
import dev.polystack.rules.graph.GraphExpander;
import dev.polystack.rules.graph.ModuleSpec;
import dev.polystack.rules.graph.ParamSpec;
import dev.polystack.rules.graph.ProviderSpec;
import dev.polystack.rules.graph.ResourceGraph;
import dev.polystack.rules.graph.ResourceTypeSpec;
import dev.polystack.rules.manifest.Manifest;
import dev.polystack.rules.manifest.ManifestLimits;
import dev.polystack.rules.manifest.ManifestParser;
import dev.polystack.rules.matching.EnvironmentContext;
import dev.polystack.rules.matching.ModuleMatchRule;
import dev.polystack.rules.matching.RunnerMatchRule;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Parse, match, expand and validate a 10,000-resource manifest against N module rules and 1,000
 * runner rules, on one thread. Run with {@code ./mvnw -pl rules-engine -Pbenchmark verify}
 * (see rules-engine/README.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx2g", "-XX:ActiveProcessorCount=1"})
public class ExpansionBenchmark {

    static final int TYPES = 20;
    static final int WORKLOADS = 100;
    static final int RESOURCES_PER_WORKLOAD = 100;
    static final int RUNNER_RULES = 1_000;
    static final EnvironmentContext ENVIRONMENT = new EnvironmentContext("acme", "shop", "prod", "production");

    @Param({"1000", "10000", "100000"})
    public int moduleRules;

    String manifestJson;
    Catalog catalog;
    final ManifestParser parser = new ManifestParser(ManifestLimits.DEFAULT);
    final GraphExpander expander = new GraphExpander();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        manifestJson = new ObjectMapper().writeValueAsString(manifest());
        catalog = catalog(moduleRules);
    }

    @Benchmark
    public ResourceGraph parseMatchExpandValidate() {
        Manifest manifest = parser.parseJson(manifestJson);
        return expander.expand(manifest, ENVIRONMENT, catalog, Map.of());
    }

    static String type(int i) {
        return "type-" + (i % TYPES);
    }

    static String resourceId(int workload, int resource) {
        return "w" + workload + ".r" + resource;
    }

    /** 100 workloads of 100 resources; every resource has a param and references a sibling's output. */
    static ObjectNode manifest() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode workloads = root.putObject("workloads");
        for (int w = 0; w < WORKLOADS; w++) {
            ObjectNode resources = workloads.putObject("w" + w).putObject("resources");
            for (int r = 0; r < RESOURCES_PER_WORKLOAD; r++) {
                ObjectNode resource = resources.putObject("r" + r);
                resource.put("type", type(w * RESOURCES_PER_WORKLOAD + r));
                ObjectNode params = resource.putObject("params");
                params.put("size", r % 7);
                if (r > 0) {
                    params.put("upstream", "${resources.r" + (r - 1) + ".outputs.endpoint}");
                }
            }
            workloads.with("w" + w).putObject("outputs").put("URL", "https://${resources.r0.outputs.endpoint}/");
        }
        return root;
    }

    /**
     * A catalog whose rules all take part: one general rule per type, rules naming resources one by one
     * (half of them, up to one per resource; the rest name resources of other environments), and rules
     * for other projects that the environment filter drops.
     */
    private static final ObjectNode ENDPOINT_OUTPUT = JsonNodeFactory.instance
            .objectNode()
            .put("type", "object")
            .set(
                    "properties",
                    JsonNodeFactory.instance.objectNode().set("endpoint", JsonNodeFactory.instance.objectNode()));

    static Catalog catalog(int moduleRuleCount) {
        List<ResourceTypeSpec> types = new ArrayList<>();
        List<ModuleSpec> modules = new ArrayList<>();
        List<ModuleMatchRule> moduleRules = new ArrayList<>();
        for (int t = 0; t < TYPES; t++) {
            types.add(new ResourceTypeSpec("type-" + t, true, ENDPOINT_OUTPUT));
            ObjectNode inputs = JsonNodeFactory.instance.objectNode();
            inputs.put("name", "${context.env_id}-${context.res_id}");
            modules.add(new ModuleSpec(
                    "module-" + t,
                    3,
                    "type-" + t,
                    Map.of(
                            "size",
                            new ParamSpec(ParamType.NUMBER, false),
                            "upstream",
                            new ParamSpec(ParamType.STRING, true)),
                    inputs,
                    Map.of("aws", "aws.default"),
                    Map.<String, DependencySpec>of()));
            moduleRules.add(
                    new ModuleMatchRule("general-" + t, "module-" + t, "type-" + t, null, null, null, null, null));
        }
        int total = WORKLOADS * RESOURCES_PER_WORKLOAD;
        int specific = (moduleRuleCount - TYPES) / 2;
        for (int k = 0; k < specific; k++) {
            String id =
                    k < total ? resourceId(k / RESOURCES_PER_WORKLOAD, k % RESOURCES_PER_WORKLOAD) : "elsewhere.r" + k;
            moduleRules.add(
                    new ModuleMatchRule("specific-" + k, "module-" + (k % TYPES), type(k), null, id, null, null, null));
        }
        for (int k = moduleRules.size(); k < moduleRuleCount; k++) {
            moduleRules.add(new ModuleMatchRule(
                    "project-" + k, "module-" + (k % TYPES), type(k), null, null, "project-" + k, null, null));
        }
        List<RunnerMatchRule> runnerRules = new ArrayList<>();
        runnerRules.add(new RunnerMatchRule("default", "runner-default", null, null, null, null, null));
        for (int t = 0; t < TYPES; t++) {
            runnerRules.add(
                    new RunnerMatchRule("type-" + t, "runner-" + t, null, "production", null, "type-" + t, null));
        }
        for (int k = runnerRules.size(); k < RUNNER_RULES; k++) {
            runnerRules.add(new RunnerMatchRule("other-" + k, "runner-x", "project-" + k, null, null, null, null));
        }
        ProviderSpec aws = new ProviderSpec(
                "aws",
                "default",
                "hashicorp/aws",
                "~> 5.0",
                JsonNodeFactory.instance.objectNode().put("region", "eu-west-1"));
        return Catalog.of(types, modules, List.of(aws), moduleRules, runnerRules);
    }
}
