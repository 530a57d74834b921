package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.Problem;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.manifest.Manifest;
import dev.polystack.rules.manifest.ResourceRequest;
import dev.polystack.rules.manifest.Workload;
import dev.polystack.rules.matching.EnvironmentContext;
import dev.polystack.rules.matching.ModuleMatchRule;
import dev.polystack.rules.matching.ModuleMatcher;
import dev.polystack.rules.matching.RunnerMatchRule;
import dev.polystack.rules.matching.RunnerMatcher;
import dev.polystack.rules.template.Placeholders;
import dev.polystack.rules.template.Reference;
import dev.polystack.rules.template.Segment;
import dev.polystack.rules.template.Usage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a manifest into a resource graph for one environment: chooses a module and a runner for every
 * resource, validates params, expands module dependencies recursively (equal identities merge), adds
 * an edge for every dependency and every reference, and sorts the graph. All problems are collected
 * and thrown together. Stateless and thread-safe.
 */
public final class GraphExpander {

    /**
     * Expands a manifest.
     *
     * @param pinnedRunners runners that resources already provisioned must keep (their state lives there)
     * @throws RulesException with every problem found, each naming its path
     */
    public ResourceGraph expand(
            Manifest manifest,
            EnvironmentContext environment,
            Catalog catalog,
            Map<ResourceIdentity, String> pinnedRunners) {
        return new Expansion(manifest, environment, catalog, pinnedRunners).run();
    }

    private static final class Expansion {
        private final Manifest manifest;
        private final Catalog catalog;
        private final Map<ResourceIdentity, String> pinnedRunners;
        private final ModuleMatcher modules;
        private final RunnerMatcher runners;
        private final List<Problem> problems = new ArrayList<>();
        private final Map<ResourceIdentity, GraphNode> nodes = new LinkedHashMap<>();
        private final Map<ResourceIdentity, String> declaredAt = new HashMap<>();
        private final Map<ResourceIdentity, ObjectNode> declaredParams = new HashMap<>();
        private final List<Edge> edges = new ArrayList<>();
        private final Deque<Pending> queue = new ArrayDeque<>();

        private final Map<String, Map<String, ResourceIdentity>> namesByWorkload = new HashMap<>();

        /** A resource to expand: its identity, params, where it comes from, and what its params' names mean. */
        private record Pending(
                ResourceIdentity identity, ObjectNode params, String path, Map<String, ResourceIdentity> references) {}

        Expansion(
                Manifest manifest,
                EnvironmentContext environment,
                Catalog catalog,
                Map<ResourceIdentity, String> pinnedRunners) {
            this.manifest = manifest;
            this.catalog = catalog;
            this.pinnedRunners = pinnedRunners;
            this.modules = new ModuleMatcher(catalog.moduleRules(), environment);
            this.runners = new RunnerMatcher(catalog.runnerRules(), environment);
        }

        ResourceGraph run() {
            Map<String, ResourceGraph.WorkloadOutputs> outputs = new TreeMap<>();
            for (ResourceRequest request : manifest.requests()) {
                ResourceTypeSpec type =
                        catalog.resourceTypes().get(request.identity().type());
                if (type == null) {
                    problems.add(new Problem(
                            request.path() + ".type",
                            "unknown resource type `" + request.identity().type() + "`"));
                    continue;
                }
                if (!type.developerAccessible()) {
                    problems.add(new Problem(
                            request.path() + ".type",
                            "resource type `" + type.id()
                                    + "` is not available to developers; only modules may depend on it"));
                    continue;
                }
                enqueue(new Pending(
                        request.identity(), request.params(), request.path(), manifestNames(request.workload())));
            }
            for (Workload workload : manifest.workloads().values()) {
                outputs.put(
                        workload.name(),
                        new ResourceGraph.WorkloadOutputs(workload.outputs(), manifestNames(workload.name())));
                checkWorkloadOutputs(workload);
            }
            while (!queue.isEmpty()) {
                expand(queue.removeFirst());
            }
            if (!problems.isEmpty()) {
                throw new RulesException(problems);
            }
            Map<ResourceIdentity, Set<ResourceIdentity>> dependencies = new HashMap<>();
            for (Edge edge : edges) {
                dependencies.computeIfAbsent(edge.from(), k -> new TreeSet<>()).add(edge.to());
            }
            Dag.Sorted<ResourceIdentity> sorted;
            try {
                sorted = Dag.sort(nodes.keySet(), dependencies);
            } catch (Dag.CycleException e) {
                List<String> cycle = e.cycle().stream()
                        .map(id -> declaredAt.get((ResourceIdentity) id))
                        .toList();
                throw new RulesException(
                        declaredAt.get((ResourceIdentity) e.cycle().get(0)),
                        "dependency cycle: " + String.join(" → ", cycle));
            }
            return new ResourceGraph(nodes, edges, sorted.order(), sorted.layers(), outputs);
        }

        /**
         * The resources that {@code resources.<alias>} and {@code shared.<alias>} stand for in a workload (or, for
         * null, among the shared resources). Built once per workload and shared by its resources: a manifest of
         * n shared resources would otherwise build n maps of n names.
         */
        private Map<String, ResourceIdentity> manifestNames(String workload) {
            return namesByWorkload.computeIfAbsent(workload == null ? "" : workload, key -> {
                Map<String, ResourceIdentity> names = new HashMap<>();
                manifest.shared().forEach((alias, request) -> names.put("shared." + alias, request.identity()));
                if (workload != null) {
                    manifest.workloads()
                            .get(workload)
                            .resources()
                            .forEach((alias, request) -> names.put("resources." + alias, request.identity()));
                }
                return Collections.unmodifiableMap(names);
            });
        }

        private void enqueue(Pending pending) {
            String earlier = declaredAt.putIfAbsent(pending.identity(), pending.path());
            if (earlier == null) {
                declaredParams.put(pending.identity(), pending.params());
                queue.addLast(pending);
                return;
            }
            ObjectNode params = declaredParams.get(pending.identity());
            if (!params.isEmpty() && !pending.params().isEmpty() && !params.equals(pending.params())) {
                problems.add(new Problem(
                        pending.path(),
                        "is the same resource (" + pending.identity() + ") as " + earlier + " but with other params"));
            }
        }

        private void expand(Pending pending) {
            ResourceIdentity identity = pending.identity();
            String path = pending.path();
            ModuleMatchRule moduleRule;
            try {
                moduleRule = modules.match(identity, path);
            } catch (RulesException e) {
                problems.addAll(e.problems());
                return;
            }
            ModuleSpec module = catalog.modules().get(moduleRule.moduleId());
            if (module == null) {
                problems.add(new Problem(
                        path,
                        "module rule " + moduleRule.id() + " names module `" + moduleRule.moduleId()
                                + "`, which does not exist"));
                return;
            }
            String runnerId = pinnedRunners.get(identity);
            String runnerRuleId = null;
            if (runnerId == null) {
                try {
                    RunnerMatchRule runnerRule = runners.match(identity, path);
                    runnerId = runnerRule.runnerId();
                    runnerRuleId = runnerRule.id();
                } catch (RulesException e) {
                    problems.addAll(e.problems());
                }
            }
            ObjectNode params = pending.params();
            problems.addAll(ParamValidator.validate(params, module, path + ".params"));
            Map<String, ResourceIdentity> references = referencesOfParams(identity, params, path, pending.references());

            Map<String, ResourceIdentity> dependencies = new TreeMap<>();
            module.dependencies().forEach((alias, dependency) -> {
                String dependencyPath = path + ".dependencies." + alias;
                if (!catalog.resourceTypes().containsKey(dependency.type())) {
                    problems.add(new Problem(
                            dependencyPath,
                            "module `" + module.id() + "` depends on unknown resource type `" + dependency.type()
                                    + "`"));
                    return;
                }
                ResourceIdentity target = new ResourceIdentity(
                        dependency.type(),
                        dependency.resourceClass() == null
                                ? ResourceIdentity.DEFAULT_CLASS
                                : dependency.resourceClass(),
                        dependency.id() == null ? identity.id() + "." + alias : dependency.id());
                dependencies.put(alias, target);
                edges.add(new Edge(identity, target, alias));
                enqueue(new Pending(target, dependency.params(), dependencyPath, Map.of()));
            });
            checkModuleTemplates(
                    module.inputs(), path + " (module `" + module.id() + "` inputs)", Usage.MODULE_INPUT, dependencies);
            Map<String, ProviderBinding> providers = new TreeMap<>();
            module.providerMapping().forEach((localName, key) -> {
                ProviderSpec provider = catalog.providers().get(key);
                if (provider == null) {
                    problems.add(new Problem(
                            path,
                            "module `" + module.id() + "` maps provider `" + localName + "` to `" + key
                                    + "`, which does not exist"));
                    return;
                }
                checkModuleTemplates(
                        provider.configuration(),
                        path + " (provider `" + key + "` configuration)",
                        Usage.PROVIDER_CONFIGURATION,
                        dependencies);
                providers.put(localName, new ProviderBinding(localName, provider));
            });
            for (String param :
                    params.properties().stream().map(Map.Entry::getKey).toList()) {
                if (module.inputs().has(param)) {
                    problems.add(new Problem(
                            path + ".params." + param,
                            "module `" + module.id() + "` sets this input itself; it cannot also be a param"));
                }
            }
            nodes.put(
                    identity,
                    new GraphNode(
                            identity,
                            path,
                            module,
                            moduleRule.id(),
                            runnerId,
                            runnerRuleId,
                            params,
                            dependencies,
                            references,
                            providers));
        }

        /** Adds an edge for each resource a node's params reference, and returns what the names mean. */
        private Map<String, ResourceIdentity> referencesOfParams(
                ResourceIdentity identity, ObjectNode params, String path, Map<String, ResourceIdentity> names) {
            Map<String, ResourceIdentity> used = new TreeMap<>();
            List<Problem> ignored = new ArrayList<>();
            for (Placeholders.Found found : Placeholders.scan(params, path + ".params", Usage.MANIFEST, ignored)) {
                for (Segment.Placeholder placeholder : found.template().placeholders()) {
                    var reference = placeholder.reference();
                    if ("context".equals(reference.root())) {
                        continue;
                    }
                    String name = reference.root() + "." + reference.fieldAt(0);
                    ResourceIdentity target = names.get(name);
                    if (target == null) {
                        problems.add(new Problem(found.path(), "unknown reference `${" + reference.text() + "}`"));
                        continue;
                    }
                    checkOutput(reference, target, found.path());
                    if (used.put(name, target) == null) {
                        edges.add(new Edge(identity, target, name));
                    }
                }
            }
            problems.addAll(ignored);
            return used;
        }

        /** A reference must name an output that the target's resource type declares, with a path that fits its shape. */
        private void checkOutput(Reference reference, ResourceIdentity target, String path) {
            ResourceTypeSpec type = catalog.resourceTypes().get(target.type());
            if (type == null) {
                return;
            }
            String problem = OutputReferences.problem(reference, type);
            if (problem != null) {
                problems.add(new Problem(path, problem));
            }
        }

        /** Workload outputs may only name outputs their resources' types declare (the parser checked the aliases). */
        private void checkWorkloadOutputs(Workload workload) {
            Map<String, ResourceIdentity> names = manifestNames(workload.name());
            for (Placeholders.Found found : Placeholders.scan(
                    workload.outputs(),
                    "workloads." + workload.name() + ".outputs",
                    Usage.MANIFEST,
                    new ArrayList<>())) {
                for (Segment.Placeholder placeholder : found.template().placeholders()) {
                    var reference = placeholder.reference();
                    if ("context".equals(reference.root())) {
                        continue;
                    }
                    ResourceIdentity target = names.get(reference.root() + "." + reference.fieldAt(0));
                    if (target != null) {
                        checkOutput(reference, target, found.path());
                    }
                }
            }
        }

        /** Placeholders in module inputs and provider configuration may only name the module's dependencies. */
        private void checkModuleTemplates(
                JsonNode document, String path, Usage usage, Map<String, ResourceIdentity> dependencies) {
            for (Placeholders.Found found : Placeholders.scan(document, path, usage, problems)) {
                for (Segment.Placeholder placeholder : found.template().placeholders()) {
                    var reference = placeholder.reference();
                    if (!"resources".equals(reference.root()) || reference.fieldAt(0) == null) {
                        continue;
                    }
                    ResourceIdentity target = dependencies.get(reference.fieldAt(0));
                    if (target == null) {
                        problems.add(new Problem(
                                found.path(),
                                "unknown reference `${" + reference.text() + "}`: the module has no dependency `"
                                        + reference.fieldAt(0) + "`"));
                    } else {
                        checkOutput(reference, target, found.path());
                    }
                }
            }
        }
    }
}
