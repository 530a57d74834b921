package dev.polystack.rules.graph;

import dev.polystack.rules.matching.ModuleMatchRule;
import dev.polystack.rules.matching.RunnerMatchRule;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything an organization has configured that expansion needs: resource types, the module
 * versions rules can choose (by module id), providers (by {@code type.id}) and rules.
 */
public record Catalog(
        Map<String, ResourceTypeSpec> resourceTypes,
        Map<String, ModuleSpec> modules,
        Map<String, ProviderSpec> providers,
        List<ModuleMatchRule> moduleRules,
        List<RunnerMatchRule> runnerRules) {

    public Catalog {
        resourceTypes = Map.copyOf(resourceTypes);
        modules = Map.copyOf(modules);
        providers = Map.copyOf(providers);
        moduleRules = List.copyOf(moduleRules);
        runnerRules = List.copyOf(runnerRules);
    }

    public static Catalog of(
            Collection<ResourceTypeSpec> types,
            Collection<ModuleSpec> modules,
            Collection<ProviderSpec> providers,
            List<ModuleMatchRule> moduleRules,
            List<RunnerMatchRule> runnerRules) {
        Map<String, ResourceTypeSpec> typeMap = new HashMap<>();
        types.forEach(t -> typeMap.put(t.id(), t));
        Map<String, ModuleSpec> moduleMap = new HashMap<>();
        modules.forEach(m -> moduleMap.put(m.id(), m));
        Map<String, ProviderSpec> providerMap = new HashMap<>();
        providers.forEach(p -> providerMap.put(p.key(), p));
        return new Catalog(typeMap, moduleMap, providerMap, moduleRules, runnerRules);
    }
}
