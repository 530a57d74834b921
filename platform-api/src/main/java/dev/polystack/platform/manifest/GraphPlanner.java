package dev.polystack.platform.manifest;

import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.rules.CatalogLoader;
import dev.polystack.platform.runner.RunnerService;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.graph.GraphExpander;
import dev.polystack.rules.graph.ResourceGraph;
import dev.polystack.rules.manifest.Manifest;
import dev.polystack.rules.manifest.ManifestParser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.HashMap;
import java.util.Map;

/**
 * Hands a manifest and the organization's configuration to the rules engine and gets back the
 * environment's resource graph, or a 422 problem naming every path that is wrong. Call inside a
 * transaction.
 */
@ApplicationScoped
public class GraphPlanner {

    @Inject
    QuotaService quotas;

    @Inject
    ManifestParser parser;

    @Inject
    GraphExpander expander;

    @Inject
    CatalogLoader catalogs;

    @Inject
    ActiveResourceService activeResources;

    @Inject
    RunnerService runners;

    public ResourceGraph expand(EnvironmentRef environment, String content, ManifestFormat format) {
        try {
            Manifest manifest = format == ManifestFormat.JSON ? parser.parseJson(content) : parser.parseYaml(content);
            long resources = manifest.shared().size()
                    + manifest.workloads().values().stream()
                            .mapToLong(w -> w.resources().size())
                            .sum();
            quotas.requireWithin(environment.orgId(), Quota.RESOURCES_PER_MANIFEST, resources);
            Map<ResourceIdentity, String> pinned = new HashMap<>();
            activeResources
                    .runners(environment.id())
                    .forEach((identity, runnerId) -> pinned.put(identity, runners.slugOf(runnerId)));
            return expander.expand(manifest, environment.context(), catalogs.load(environment.orgId()), pinned);
        } catch (RulesException e) {
            throw ManifestProblems.of(e, content);
        }
    }
}
