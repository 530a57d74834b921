package dev.polystack.platform.runner;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ManagementRequest;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.matching.RunnerMatchRule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class RunnerRuleService {

    private final RunnerRuleRepository rules;
    private final RunnerService runners;
    private final EnvironmentService environments;
    private final ResourceTypeService resourceTypes;
    private final Clock clock;

    @Inject
    RunnerRuleService(
            RunnerRuleRepository rules,
            RunnerService runners,
            EnvironmentService environments,
            ResourceTypeService resourceTypes,
            Clock clock) {
        this.rules = rules;
        this.runners = runners;
        this.environments = environments;
        this.resourceTypes = resourceTypes;
        this.clock = clock;
    }

    @Transactional
    public RunnerRuleView create(OrgScope scope, CreateRunnerRuleRequest request) {
        UUID runnerId = runners.findId(scope.orgId(), request.runnerId())
                .orElseThrow(() -> PlatformException.unprocessable(
                        "/runner_id", "runner `" + request.runnerId() + "` does not exist"));
        EnvironmentService.TargetIds target =
                environments.resolveTarget(scope, request.projectId(), request.envTypeId(), request.envId());
        UUID resourceTypeId = request.resourceType() == null
                ? null
                : resourceTypes
                        .findId(scope.orgId(), request.resourceType())
                        .orElseThrow(() -> PlatformException.unprocessable(
                                "/resource_type", "resource type `" + request.resourceType() + "` does not exist"));
        rules.sameCriteria(
                        scope.orgId(),
                        target.projectId(),
                        target.envTypeId(),
                        target.envId(),
                        resourceTypeId,
                        request.resourceClass())
                .ifPresent(existing -> {
                    throw PlatformException.conflict(
                            "runner rule " + existing.id() + " (runner `" + runners.slugOf(existing.runnerId())
                                    + "`) has the same criteria; two such rules would always tie. Delete it first");
                });
        RunnerRule rule = new RunnerRule(
                scope.orgId(),
                runnerId,
                target.projectId(),
                target.envTypeId(),
                target.envId(),
                resourceTypeId,
                request.resourceClass(),
                scope.caller().principalId(),
                clock.instant());
        rule.manage(Management.of(request.managedBy(), request.protect()));
        rules.persist(rule);
        return view(rule);
    }

    @Transactional
    public Page<RunnerRuleView> list(OrgScope scope, String runner, PageRequest page) {
        int limit = page.limit();
        UUID runnerId = runner == null
                ? null
                : runners.findId(scope.orgId(), runner)
                        .orElseThrow(() -> PlatformException.notFound("runner `" + runner + "`"));
        try {
            return Page.of(
                    rules.page(scope.orgId(), runnerId, page.after(), limit),
                    limit,
                    RunnerRuleRepository::sortKey,
                    this::view);
        } catch (DateTimeParseException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
    }

    @Transactional
    public RunnerRuleView get(OrgScope scope, UUID id) {
        return view(require(scope, id));
    }

    @Transactional
    public RunnerRuleView manage(OrgScope scope, UUID id, ManagementRequest request) {
        RunnerRule rule = require(scope, id);
        rule.manage(rule.management().with(request.managedBy(), request.protect()));
        rules.flush();
        return view(rule);
    }

    @Transactional
    public void delete(OrgScope scope, UUID id) {
        RunnerRule rule = require(scope, id);
        rule.management().requireDeletable("runner rule " + id);
        rules.delete(rule);
    }

    /** The organization's runner rules, as the rules engine needs them. */
    public List<RunnerMatchRule> engineRules(UUID orgId) {
        return rules.list("orgId", orgId).stream()
                .map(rule -> {
                    EnvironmentService.TargetNames target = environments.namesOf(
                            new EnvironmentService.TargetIds(rule.projectId(), rule.envTypeId(), rule.envId()));
                    return new RunnerMatchRule(
                            rule.id().toString(),
                            runners.slugOf(rule.runnerId()),
                            target.projectId(),
                            target.envTypeId(),
                            target.envId(),
                            rule.resourceTypeId() == null ? null : resourceTypes.slugOf(rule.resourceTypeId()),
                            rule.resourceClass());
                })
                .toList();
    }

    private RunnerRule require(OrgScope scope, UUID id) {
        return rules.find(scope.orgId(), id).orElseThrow(() -> PlatformException.notFound("runner rule `" + id + "`"));
    }

    private RunnerRuleView view(RunnerRule rule) {
        EnvironmentService.TargetNames target = environments.namesOf(
                new EnvironmentService.TargetIds(rule.projectId(), rule.envTypeId(), rule.envId()));
        return new RunnerRuleView(
                rule.id(),
                runners.slugOf(rule.runnerId()),
                target.projectId(),
                target.envTypeId(),
                target.envId(),
                rule.resourceTypeId() == null ? null : resourceTypes.slugOf(rule.resourceTypeId()),
                rule.resourceClass(),
                rule.management().managedBy(),
                rule.management().isProtected(),
                rule.createdAt());
    }
}
