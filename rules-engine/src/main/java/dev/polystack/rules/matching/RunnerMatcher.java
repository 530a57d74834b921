package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;

import java.util.Collection;
import java.util.List;

/**
 * Chooses a runner for each resource. Specificity order: environment, environment type, project,
 * resource type, resource class. Immutable and thread-safe.
 */
public final class RunnerMatcher {

    private static final List<Criterion<RunnerMatchRule>> CRITERIA = List.of(
            new Criterion<>("env_id", RunnerMatchRule::envId, (r, env) -> env.envId()),
            new Criterion<>("env_type_id", RunnerMatchRule::envTypeId, (r, env) -> env.envTypeId()),
            new Criterion<>("project_id", RunnerMatchRule::projectId, (r, env) -> env.projectId()),
            new Criterion<>("resource_type", RunnerMatchRule::resourceType, (r, env) -> r == null ? null : r.type()),
            new Criterion<>(
                    "resource_class",
                    RunnerMatchRule::resourceClass,
                    (r, env) -> r == null ? null : r.resourceClass()));

    private final Matcher<RunnerMatchRule> matcher;

    public RunnerMatcher(Collection<RunnerMatchRule> rules, EnvironmentContext environment) {
        this.matcher =
                new Matcher<>(
                        "runner",
                        CRITERIA,
                        RunnerMatchRule::id,
                        RunnerMatchRule::runnerId,
                        RunnerMatchRule::resourceType,
                        rule -> null,
                        rules,
                        environment) {
                    @Override
                    String keyOf(ResourceIdentity resource) {
                        return null;
                    }

                    @Override
                    boolean typeMatches(RunnerMatchRule rule, ResourceIdentity resource) {
                        return true;
                    }
                };
    }

    public RunnerMatchRule match(ResourceIdentity resource, String path) {
        return matcher.match(resource, path);
    }

    public Explanation explain(ResourceIdentity resource) {
        return matcher.explain(resource);
    }
}
