package dev.polystack.platform.rules;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.graph.Catalog;
import dev.polystack.rules.matching.Explanation;
import dev.polystack.rules.matching.ModuleMatcher;
import dev.polystack.rules.matching.RunnerMatcher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/** Which module and runner a resource would get in an environment, and why: the rules engine's own reasoning. */
@ApplicationScoped
public class ExplainService {

    @Inject
    EnvironmentService environments;

    @Inject
    CatalogLoader catalogs;

    /** The module and runner explanation of one resource. */
    public record ExplainView(ResourceIdentity resource, Explanation module, Explanation runner) {}

    @Transactional
    public ExplainView explain(
            OrgScope scope, String project, String env, String type, String resourceClass, String id) {
        if (type == null || type.isBlank()) {
            throw PlatformException.invalid("type", "is required: the resource type, e.g. postgres");
        }
        if (id == null || id.isBlank()) {
            throw PlatformException.invalid("id", "is required: the resource id, e.g. shared.db");
        }
        EnvironmentRef environment = environments.reference(scope, project, env);
        Catalog catalog = catalogs.load(scope.orgId());
        if (!catalog.resourceTypes().containsKey(type)) {
            throw PlatformException.unprocessable(
                    "type", "resource type `" + type + "` does not exist in this organization");
        }
        ResourceIdentity resource = new ResourceIdentity(
                type,
                resourceClass == null || resourceClass.isBlank() ? ResourceIdentity.DEFAULT_CLASS : resourceClass,
                id);
        return new ExplainView(
                resource,
                new ModuleMatcher(catalog.moduleRules(), environment.context()).explain(resource),
                new RunnerMatcher(catalog.runnerRules(), environment.context()).explain(resource));
    }
}
