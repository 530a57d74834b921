package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;

import java.util.Collection;
import java.util.List;

/**
 * Chooses a runner for each resource. Specificity order: environment, environment type, project,
 * resource type, resource class. Immutable and thread-safe.
 */
public final class RunnerMatcher {

    private static final List<Criterion<RunnerRule>> CRITERIA = List.of(
            new Criterion<>("env_id", RunnerRule::envId, (r, env) -> env.envId()),
            new Criterion<>("env_type_id", RunnerRule::envTypeId, (r, env) -> env.envTypeId()),
            new Criterion<>("project_id", RunnerRule::projectId, (r, env) -> env.projectId()),
            new Criterion<>("resource_type", RunnerRule::resourceType, (r, env) -> r == null ? null : r.type()),
            new Criterion<>(
                    "resource_class", RunnerRule::resourceClass, (r, env) -> r == null ? null : r.resourceClass()));

    private final Matcher<RunnerRule> matcher;

    public RunnerMatcher(Collection<RunnerRule> rules, EnvironmentContext environment) {
        this.matcher =
                new Matcher<>(
                        "runner",
                        CRITERIA,
                        RunnerRule::id,
                        RunnerRule::runnerId,
                        RunnerRule::resourceType,
                        rule -> null,
                        rules,
                        environment) {
                    @Override
                    String keyOf(ResourceIdentity resource) {
                        return null;
                    }

                    @Override
                    boolean typeMatches(RunnerRule rule, ResourceIdentity resource) {
                        return true;
                    }
                };
    }

    public RunnerRule match(ResourceIdentity resource, String path) {
        return matcher.match(resource, path);
    }

    public Explanation explain(ResourceIdentity resource) {
        return matcher.explain(resource);
    }
}
