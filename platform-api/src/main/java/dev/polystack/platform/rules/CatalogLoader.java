package dev.polystack.platform.rules;

import dev.polystack.platform.module.ModuleRuleService;
import dev.polystack.platform.module.ModuleService;
import dev.polystack.platform.provider.ProviderService;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.platform.runner.RunnerRuleService;
import dev.polystack.rules.graph.Catalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.UUID;

/** Reads an organization's configuration into the rules engine's {@link Catalog}. Call inside a transaction. */
@ApplicationScoped
public class CatalogLoader {

    @Inject
    ResourceTypeService resourceTypes;

    @Inject
    ModuleService modules;

    @Inject
    ProviderService providers;

    @Inject
    ModuleRuleService moduleRules;

    @Inject
    RunnerRuleService runnerRules;

    public Catalog load(UUID orgId) {
        return Catalog.of(
                resourceTypes.specs(orgId),
                modules.specs(orgId),
                providers.specs(orgId),
                moduleRules.engineRules(orgId),
                runnerRules.engineRules(orgId));
    }
}
