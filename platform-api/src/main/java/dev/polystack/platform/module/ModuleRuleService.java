package dev.polystack.platform.module;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ManagementRequest;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.matching.ModuleMatchRule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

@ApplicationScoped
public class ModuleRuleService {

    private final ModuleRuleRepository rules;
    private final ModuleService modules;
    private final EnvironmentService environments;
    private final Clock clock;

    @Inject
    ModuleRuleService(ModuleRuleRepository rules, ModuleService modules, EnvironmentService environments, Clock clock) {
        this.rules = rules;
        this.modules = modules;
        this.environments = environments;
        this.clock = clock;
    }

    @Transactional
    public ModuleRuleView create(OrgScope scope, CreateModuleRuleRequest request) {
        if (request.envTypeId() != null && request.envId() != null) {
            throw PlatformException.invalid(
                    "/env_id", "a rule targets an environment type or an environment, never both");
        }
        UUID moduleId = modules.findId(scope.orgId(), request.moduleId())
                .orElseThrow(() -> PlatformException.unprocessable(
                        "/module_id", "module `" + request.moduleId() + "` does not exist"));
        EnvironmentService.TargetIds target =
                environments.resolveTarget(scope, request.projectId(), request.envTypeId(), request.envId());
        rules.sameCriteria(
                        scope.orgId(),
                        modules.resourceTypeIdOf(moduleId),
                        request.resourceClass(),
                        request.resourceId(),
                        target.projectId(),
                        target.envTypeId(),
                        target.envId())
                .ifPresent(existing -> {
                    throw PlatformException.conflict(
                            "module rule " + existing.id() + " (module `" + modules.slugOf(existing.moduleId())
                                    + "`) has the same criteria; two such rules would always tie. Delete it first");
                });
        ModuleRule rule = new ModuleRule(
                scope.orgId(),
                moduleId,
                request.resourceClass(),
                request.resourceId(),
                target.projectId(),
                target.envTypeId(),
                target.envId(),
                scope.caller().principalId(),
                clock.instant());
        rule.manage(Management.of(request.managedBy(), request.protect()));
        rules.persist(rule);
        return view(rule);
    }

    @Transactional
    public Page<ModuleRuleView> list(OrgScope scope, String module, PageRequest page) {
        int limit = page.limit();
        UUID moduleId = module == null
                ? null
                : modules.findId(scope.orgId(), module)
                        .orElseThrow(() -> PlatformException.notFound("module `" + module + "`"));
        try {
            return Page.of(
                    rules.page(scope.orgId(), moduleId, page.after(), limit),
                    limit,
                    ModuleRuleRepository::sortKey,
                    this::view);
        } catch (DateTimeParseException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
    }

    @Transactional
    public ModuleRuleView get(OrgScope scope, UUID id) {
        return view(require(scope, id));
    }

    @Transactional
    public ModuleRuleView manage(OrgScope scope, UUID id, ManagementRequest request) {
        ModuleRule rule = require(scope, id);
        rule.manage(rule.management().with(request.managedBy(), request.protect()));
        rules.flush();
        return view(rule);
    }

    @Transactional
    public void delete(OrgScope scope, UUID id) {
        ModuleRule rule = require(scope, id);
        rule.management().requireDeletable("module rule " + id);
        rules.delete(rule);
    }

    /** The organization's module rules, as the rules engine needs them. */
    public List<ModuleMatchRule> engineRules(UUID orgId) {
        Map<UUID, String[]> modulesById = new HashMap<>();
        return rules.all(orgId).stream()
                .map(rule -> {
                    String[] module = modulesById.computeIfAbsent(rule.moduleId(), id -> modules.slugAndType(id));
                    EnvironmentService.TargetNames target = environments.namesOf(
                            new EnvironmentService.TargetIds(rule.projectId(), rule.envTypeId(), rule.envId()));
                    return new ModuleMatchRule(
                            rule.id().toString(),
                            module[0],
                            module[1],
                            rule.resourceClass(),
                            rule.resourceId(),
                            target.projectId(),
                            target.envTypeId(),
                            target.envId());
                })
                .toList();
    }

    private ModuleRule require(OrgScope scope, UUID id) {
        return rules.find(scope.orgId(), id).orElseThrow(() -> PlatformException.notFound("module rule `" + id + "`"));
    }

    private ModuleRuleView view(ModuleRule rule) {
        EnvironmentService.TargetNames target = environments.namesOf(
                new EnvironmentService.TargetIds(rule.projectId(), rule.envTypeId(), rule.envId()));
        return new ModuleRuleView(
                rule.id(),
                modules.slugOf(rule.moduleId()),
                rule.resourceClass(),
                rule.resourceId(),
                target.projectId(),
                target.envTypeId(),
                target.envId(),
                rule.management().managedBy(),
                rule.management().isProtected(),
                rule.createdAt());
    }
}
