package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ParamType;
import dev.polystack.rules.matching.EnvironmentContext;
import dev.polystack.rules.matching.ModuleMatchRule;
import dev.polystack.rules.matching.RunnerMatchRule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A small catalog builder for graph tests. */
final class Fixtures {

    static final ObjectMapper JSON = new ObjectMapper();
    static final EnvironmentContext PROD = new EnvironmentContext("acme", "shop", "prod", "production");

    final List<ResourceTypeSpec> types = new ArrayList<>();
    final List<ModuleSpec> modules = new ArrayList<>();
    final List<ProviderSpec> providers = new ArrayList<>();
    final List<ModuleMatchRule> moduleRules = new ArrayList<>();
    final List<RunnerMatchRule> runnerRules =
            new ArrayList<>(List.of(new RunnerMatchRule("any", "runner-1", null, null, null, null, null)));

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The outputs every test type declares, of any shape. */
    static final ObjectNode ANY_OUTPUTS = json("""
            {"type": "object", "properties": {"host": {}, "port": {}, "token": {}, "endpoints": {}, "password": {}, "value": {},
             "size": {}, "id": {}, "endpoint": {}, "name": {}, "key.with.dots": {}, "missing": {}}}""");

    Fixtures type(String id, boolean developerAccessible) {
        types.add(new ResourceTypeSpec(id, developerAccessible, ANY_OUTPUTS));
        return this;
    }

    Fixtures type(String id, boolean developerAccessible, String outputSchema) {
        types.add(new ResourceTypeSpec(id, developerAccessible, json(outputSchema)));
        return this;
    }

    /** A module for a type, chosen by a rule without criteria. */
    Fixtures module(String id, String type, String inputs, Map<String, DependencySpec> dependencies) {
        return module(id, type, inputs, dependencies, Map.of(), Map.of());
    }

    Fixtures module(
            String id,
            String type,
            String inputs,
            Map<String, DependencySpec> dependencies,
            Map<String, ParamSpec> params,
            Map<String, String> providerMapping) {
        modules.add(new ModuleSpec(id, 1, type, params, json(inputs), providerMapping, dependencies));
        moduleRules.add(new ModuleMatchRule("rule-" + id, id, type, null, null, null, null, null));
        return this;
    }

    Fixtures provider(String type, String id, String configuration) {
        providers.add(new ProviderSpec(type, id, "hashicorp/" + type, null, json(configuration)));
        return this;
    }

    static DependencySpec dependency(String type, String id) {
        return new DependencySpec(type, null, id, null);
    }

    static Map<String, ParamSpec> params(Object... nameTypeOptional) {
        Map<String, ParamSpec> params = new java.util.HashMap<>();
        for (int i = 0; i < nameTypeOptional.length; i += 3) {
            params.put((String) nameTypeOptional[i], new ParamSpec((ParamType) nameTypeOptional[i + 1], (Boolean)
                    nameTypeOptional[i + 2]));
        }
        return params;
    }

    Catalog catalog() {
        return Catalog.of(types, modules, providers, moduleRules, runnerRules);
    }
}
