package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;

import java.util.Collection;
import java.util.List;

/**
 * Chooses a module for each resource. Specificity order: resource id, environment, environment type,
 * project, resource class. Immutable and thread-safe.
 */
public final class ModuleMatcher {

    private static final List<Criterion<ModuleRule>> CRITERIA = List.of(
            new Criterion<>("resource_id", ModuleRule::resourceId, (r, env) -> r == null ? null : r.id()),
            new Criterion<>("env_id", ModuleRule::envId, (r, env) -> env.envId()),
            new Criterion<>("env_type_id", ModuleRule::envTypeId, (r, env) -> env.envTypeId()),
            new Criterion<>("project_id", ModuleRule::projectId, (r, env) -> env.projectId()),
            new Criterion<>(
                    "resource_class", ModuleRule::resourceClass, (r, env) -> r == null ? null : r.resourceClass()));

    private final Matcher<ModuleRule> matcher;

    public ModuleMatcher(Collection<ModuleRule> rules, EnvironmentContext environment) {
        this.matcher =
                new Matcher<>(
                        "module",
                        CRITERIA,
                        ModuleRule::id,
                        ModuleRule::moduleId,
                        ModuleRule::moduleResourceType,
                        ModuleRule::resourceId,
                        rules,
                        environment) {
                    @Override
                    String keyOf(ResourceIdentity resource) {
                        return resource.id();
                    }

                    @Override
                    boolean typeMatches(ModuleRule rule, ResourceIdentity resource) {
                        return rule.moduleResourceType().equals(resource.type());
                    }
                };
    }

    /**
     * The winning rule for a resource.
     *
     * @param path where the resource is declared, for the error
     * @throws dev.polystack.rules.RulesException when no rule matches or two tie
     */
    public ModuleRule match(ResourceIdentity resource, String path) {
        return matcher.match(resource, path);
    }

    public Explanation explain(ResourceIdentity resource) {
        return matcher.explain(resource);
    }
}
