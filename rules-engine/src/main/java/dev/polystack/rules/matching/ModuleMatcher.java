package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;

import java.util.Collection;
import java.util.List;

/**
 * Chooses a module for each resource. Specificity order: resource id, environment, environment type,
 * project, resource class. Immutable and thread-safe.
 */
public final class ModuleMatcher {

    private static final List<Criterion<ModuleMatchRule>> CRITERIA = List.of(
            new Criterion<>("resource_id", ModuleMatchRule::resourceId, (r, env) -> r == null ? null : r.id()),
            new Criterion<>("env_id", ModuleMatchRule::envId, (r, env) -> env.envId()),
            new Criterion<>("env_type_id", ModuleMatchRule::envTypeId, (r, env) -> env.envTypeId()),
            new Criterion<>("project_id", ModuleMatchRule::projectId, (r, env) -> env.projectId()),
            new Criterion<>(
                    "resource_class",
                    ModuleMatchRule::resourceClass,
                    (r, env) -> r == null ? null : r.resourceClass()));

    private final Matcher<ModuleMatchRule> matcher;

    public ModuleMatcher(Collection<ModuleMatchRule> rules, EnvironmentContext environment) {
        this.matcher =
                new Matcher<>(
                        "module",
                        CRITERIA,
                        ModuleMatchRule::id,
                        ModuleMatchRule::moduleId,
                        ModuleMatchRule::moduleResourceType,
                        ModuleMatchRule::resourceId,
                        rules,
                        environment) {
                    @Override
                    String keyOf(ResourceIdentity resource) {
                        return resource.id();
                    }

                    @Override
                    boolean typeMatches(ModuleMatchRule rule, ResourceIdentity resource) {
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
    public ModuleMatchRule match(ResourceIdentity resource, String path) {
        return matcher.match(resource, path);
    }

    public Explanation explain(ResourceIdentity resource) {
        return matcher.explain(resource);
    }
}
