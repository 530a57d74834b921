package dev.polystack.platform.deployment.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentNode;
import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.deployment.model.NodeStatus;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.issue.IssueKind;
import dev.polystack.platform.issue.IssueService;
import dev.polystack.platform.manifest.GraphPlanner;
import dev.polystack.platform.manifest.ManifestService;
import dev.polystack.platform.manifest.ManifestVersion;
import dev.polystack.platform.organization.OrganizationService;
import dev.polystack.platform.resource.ActiveResource;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.runner.RunnerService;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.graph.GraphNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The checks of the convergence loop, and the issues that deployments leave behind. A check deployment gets
 * its nodes when it starts: one per active resource, with the module version, inputs and providers that
 * resource was last applied with (never the current manifest: a change not yet deployed is not drift). What
 * each check, apply and destroy ends with opens or resolves the resource's issues in the same transaction.
 */
@ApplicationScoped
public class Checks {

    private static final Set<IssueKind> DRIFT_KINDS = EnumSet.of(IssueKind.DRIFT, IssueKind.DESTRUCTIVE_DRIFT);

    @Inject
    NodeRepository nodes;

    @Inject
    ActiveResourceService activeResources;

    @Inject
    IssueService issues;

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    @Inject
    ManifestService manifests;

    @Inject
    GraphPlanner planner;

    @Inject
    EnvironmentService environments;

    @Inject
    OrganizationService organizations;

    @Inject
    RunnerService runners;

    /**
     * Adds a check node for each active resource; one whose last apply failed, or whose runner is offline or
     * gone, is skipped, saying so. Looks at the configuration too: a resource whose runner is unavailable, or
     * for which the rules now pick another module version than the one applied, gets an issue of that kind
     * (resolved when it no longer holds).
     */
    void add(Deployment deployment, Instant now) {
        Map<ResourceIdentity, GraphNode> wanted = wanted(deployment);
        for (ActiveResource resource : activeResources.of(deployment.environmentId())) {
            ResourceIdentity identity = resource.identity();
            DeploymentNode node = new DeploymentNode(
                    deployment.id(),
                    identity,
                    "active." + identity,
                    NodeOperation.CHECK,
                    resource.moduleId(),
                    resource.moduleSlug(),
                    resource.moduleVersion(),
                    resource.runnerId(),
                    resource.spec());
            node.preset(secretBox.seal(activeResources.resolvedOf(resource), node.resolvedBinding()));
            nodes.persist(node);
            moduleVersion(deployment, resource, wanted, now);
            Optional<String> unavailable = runnerUnavailable(resource.runnerId());
            if (unavailable.isPresent()) {
                issues.open(
                        deployment.orgId(),
                        deployment.environmentId(),
                        identity,
                        IssueKind.RUNNER_UNAVAILABLE,
                        unavailable.get(),
                        null,
                        deployment.id(),
                        now);
                node.end(NodeStatus.SKIPPED, "not checked: " + unavailable.get(), null, now);
                continue;
            }
            issues.resolve(
                    deployment.environmentId(),
                    identity,
                    EnumSet.of(IssueKind.RUNNER_UNAVAILABLE),
                    "its runner is back (check " + deployment.id() + ")",
                    deployment.id(),
                    now);
            if (issues.isOpen(deployment.environmentId(), identity, IssueKind.APPLY_FAILED)) {
                node.end(
                        NodeStatus.SKIPPED,
                        "not checked: its last apply failed (see its apply-failed issue)",
                        null,
                        now);
            }
        }
    }

    /** What the rules pick now for the environment's current manifest; empty when it has none or they refuse it. */
    private Map<ResourceIdentity, GraphNode> wanted(Deployment deployment) {
        Optional<ManifestVersion> manifest = manifests.find(deployment.environmentId(), null);
        if (manifest.isEmpty()) {
            return Map.of();
        }
        try {
            EnvironmentRef environment =
                    environments.reference(deployment.environmentId(), organizations.slugOf(deployment.orgId()));
            return planner.expand(
                            environment,
                            manifest.get().content(),
                            manifest.get().format())
                    .nodes();
        } catch (PlatformException e) {
            // the next deployment will say what is wrong with it; a check has no verdict on module versions then
            return Map.of();
        }
    }

    private void moduleVersion(
            Deployment deployment, ActiveResource resource, Map<ResourceIdentity, GraphNode> wanted, Instant now) {
        GraphNode node = wanted.get(resource.identity());
        if (node == null) {
            return;
        }
        String module = node.module().id();
        int version = node.module().version();
        if (module.equals(resource.moduleSlug()) && version == resource.moduleVersion()) {
            issues.resolve(
                    deployment.environmentId(),
                    resource.identity(),
                    EnumSet.of(IssueKind.MODULE_OUTDATED),
                    "the rules pick the applied module version (check " + deployment.id() + ")",
                    deployment.id(),
                    now);
            return;
        }
        ObjectNode detail = json.createObjectNode();
        detail.putObject("applied").put("module", resource.moduleSlug()).put("version", resource.moduleVersion());
        detail.putObject("wanted").put("module", module).put("version", version);
        issues.open(
                deployment.orgId(),
                deployment.environmentId(),
                resource.identity(),
                IssueKind.MODULE_OUTDATED,
                "the rules now pick module " + module + " v" + version + "; " + resource.moduleSlug() + " v"
                        + resource.moduleVersion() + " is applied (the next deployment of it applies the new one)",
                detail,
                deployment.id(),
                now);
    }

    /** Why a resource's runner cannot run its check, or empty when it can. */
    private Optional<String> runnerUnavailable(UUID runnerId) {
        String status = runners.statusOf(runnerId);
        if ("deleted".equals(status)) {
            return Optional.of("its runner was deleted");
        }
        if ("offline".equals(status)) {
            return Optional.of("its runner `" + runners.slugOf(runnerId)
                    + "` is offline (not heard from for two heartbeat intervals)");
        }
        return Optional.empty();
    }

    /** Records what a job's end says about its resource. Call in the transaction that records the end. */
    public void ended(
            Deployment deployment, DeploymentNode node, NodeStatus status, String error, JsonNode report, Instant now) {
        ended(deployment, node, status, error, report, now, List.of());
    }

    /**
     * The same, sending {@code before} (writes of the same transaction whose results are not needed) with its first
     * statement: after a successful apply, the one that resolves the resource's issues, so that a job's result
     * writes its resource and resolves its issues in one round trip.
     */
    public void ended(
            Deployment deployment,
            DeploymentNode node,
            NodeStatus status,
            String error,
            JsonNode report,
            Instant now,
            List<Statement> before) {
        ResourceIdentity resource = node.identity();
        if (node.operation() == NodeOperation.APPLY && status == NodeStatus.SUCCEEDED) {
            // a runner applied it, with what the rules picked: a later check says again if that is not the newest
            issues.resolve(
                    deployment.environmentId(),
                    resource,
                    EnumSet.of(
                            IssueKind.DRIFT,
                            IssueKind.DESTRUCTIVE_DRIFT,
                            IssueKind.APPLY_FAILED,
                            IssueKind.CHECK_FAILED,
                            IssueKind.RUNNER_UNAVAILABLE,
                            IssueKind.MODULE_OUTDATED),
                    "applied by deployment " + deployment.id(),
                    deployment.id(),
                    now,
                    before);
            return;
        }
        InTransaction.executeAll(nodes.getEntityManager(), before);
        switch (node.operation()) {
            case CHECK -> {
                if (status == NodeStatus.SUCCEEDED && report != null) {
                    checked(deployment, resource, report, now);
                } else if (status == NodeStatus.FAILED) {
                    issues.open(
                            deployment.orgId(),
                            deployment.environmentId(),
                            resource,
                            IssueKind.CHECK_FAILED,
                            "the check failed: " + (error == null ? "no reason given" : error),
                            errorDetail(error),
                            deployment.id(),
                            now);
                }
            }
            case APPLY -> {
                // a successful apply resolved its issues above
                if (status == NodeStatus.FAILED) {
                    issues.open(
                            deployment.orgId(),
                            deployment.environmentId(),
                            resource,
                            IssueKind.APPLY_FAILED,
                            "the last apply failed: " + (error == null ? "no reason given" : error),
                            errorDetail(error),
                            deployment.id(),
                            now);
                }
            }
            case DESTROY -> {
                if (status == NodeStatus.SUCCEEDED) {
                    issues.resolve(
                            deployment.environmentId(),
                            resource,
                            EnumSet.allOf(IssueKind.class),
                            "destroyed by deployment " + deployment.id(),
                            deployment.id(),
                            now);
                }
            }
            default -> {}
        }
    }

    /** A check that ran: drift (destructive when putting it back deletes or replaces), or none, which resolves what was open. */
    private void checked(Deployment deployment, ResourceIdentity resource, JsonNode report, Instant now) {
        issues.resolve(
                deployment.environmentId(),
                resource,
                EnumSet.of(IssueKind.CHECK_FAILED),
                "checked by deployment " + deployment.id(),
                deployment.id(),
                now);
        boolean drifted = report.path("drifted").asBoolean(false);
        boolean changes = report.path("changes_pending").asBoolean(false);
        if (!drifted && !changes) {
            // a refresh-only check sees only what changed in the world, not a configuration that would change it:
            // it cannot tell that drift a full check found is gone
            if (!deployment.refreshOnly()) {
                issues.resolve(
                        deployment.environmentId(),
                        resource,
                        DRIFT_KINDS,
                        "no drift found by check " + deployment.id(),
                        deployment.id(),
                        now);
            }
            return;
        }
        List<String> destructive = new ArrayList<>();
        for (JsonNode change : report.path("changes")) {
            if (containsDelete(change.path("actions"))) {
                destructive.add(change.path("address").asText()
                        + (change.path("action_reason").isTextual()
                                ? " (" + change.path("action_reason").asText() + ")"
                                : ""));
            }
        }
        IssueKind kind = destructive.isEmpty() ? IssueKind.DRIFT : IssueKind.DESTRUCTIVE_DRIFT;
        IssueKind other = kind == IssueKind.DRIFT ? IssueKind.DESTRUCTIVE_DRIFT : IssueKind.DRIFT;
        issues.resolve(
                deployment.environmentId(),
                resource,
                EnumSet.of(other),
                "the drift is now " + kind.wireName() + " (check " + deployment.id() + ")",
                deployment.id(),
                now);
        issues.open(
                deployment.orgId(),
                deployment.environmentId(),
                resource,
                kind,
                summary(report, destructive),
                report,
                deployment.id(),
                now);
    }

    private static String summary(JsonNode report, List<String> destructive) {
        List<String> drifted = new ArrayList<>();
        for (JsonNode drift : report.path("drift")) {
            List<String> paths = new ArrayList<>();
            drift.path("attributes").forEach(a -> paths.add(a.path("path").asText()));
            drifted.add(
                    drift.path("address").asText() + (paths.isEmpty() ? "" : " (" + String.join(", ", paths) + ")"));
        }
        StringBuilder summary = new StringBuilder();
        if (!drifted.isEmpty()) {
            summary.append("changed outside Polystack: ").append(String.join("; ", drifted));
        } else {
            List<String> changed = new ArrayList<>();
            report.path("changes").forEach(c -> changed.add(c.path("address").asText()));
            summary.append("applying its last configuration again would change ")
                    .append(changed.isEmpty() ? "its outputs" : String.join(", ", changed));
        }
        if (!destructive.isEmpty()) {
            summary.append("; putting it back deletes or replaces ").append(String.join(", ", destructive));
        }
        return summary.toString();
    }

    private static boolean containsDelete(JsonNode actions) {
        for (JsonNode action : actions) {
            if ("delete".equals(action.asText())) {
                return true;
            }
        }
        return false;
    }

    private ObjectNode errorDetail(String error) {
        ObjectNode detail = json.createObjectNode();
        detail.put("error", error);
        return detail;
    }
}
