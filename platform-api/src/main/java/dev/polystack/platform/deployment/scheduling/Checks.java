package dev.polystack.platform.deployment.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentNode;
import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.deployment.model.NodeStatus;
import dev.polystack.platform.issue.IssueKind;
import dev.polystack.platform.issue.IssueService;
import dev.polystack.platform.resource.ActiveResource;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.rules.ResourceIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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

    /** Adds a check node for each active resource; one whose last apply failed is skipped, saying so. */
    void add(Deployment deployment, Instant now) {
        for (ActiveResource resource : activeResources.of(deployment.environmentId())) {
            DeploymentNode node = new DeploymentNode(deployment.id(), resource.identity(), "active." + resource.identity(),
                    NodeOperation.CHECK, resource.moduleId(), resource.moduleSlug(), resource.moduleVersion(), resource.runnerId(),
                    resource.spec());
            node.preset(secretBox.seal(activeResources.resolvedOf(resource), node.resolvedBinding()));
            nodes.persist(node);
            if (issues.isOpen(deployment.environmentId(), resource.identity(), IssueKind.APPLY_FAILED)) {
                node.end(NodeStatus.SKIPPED, "not checked: its last apply failed (see its apply-failed issue)", null, now);
            }
        }
    }

    /** Records what a job's end says about its resource. Call in the transaction that records the end. */
    public void ended(Deployment deployment, DeploymentNode node, NodeStatus status, String error, JsonNode report, Instant now) {
        ResourceIdentity resource = node.identity();
        switch (node.operation()) {
            case CHECK -> {
                if (status == NodeStatus.SUCCEEDED && report != null) {
                    checked(deployment, resource, report, now);
                } else if (status == NodeStatus.FAILED) {
                    issues.open(deployment.orgId(), deployment.environmentId(), resource, IssueKind.CHECK_FAILED,
                            "the check failed: " + (error == null ? "no reason given" : error), errorDetail(error),
                            deployment.id(), now);
                }
            }
            case APPLY -> {
                if (status == NodeStatus.SUCCEEDED) {
                    issues.resolve(deployment.environmentId(), resource, EnumSet.of(IssueKind.DRIFT, IssueKind.DESTRUCTIVE_DRIFT,
                            IssueKind.APPLY_FAILED, IssueKind.CHECK_FAILED), "applied by deployment " + deployment.id(), deployment.id(), now);
                } else if (status == NodeStatus.FAILED) {
                    issues.open(deployment.orgId(), deployment.environmentId(), resource, IssueKind.APPLY_FAILED,
                            "the last apply failed: " + (error == null ? "no reason given" : error), errorDetail(error),
                            deployment.id(), now);
                }
            }
            case DESTROY -> {
                if (status == NodeStatus.SUCCEEDED) {
                    issues.resolve(deployment.environmentId(), resource, EnumSet.allOf(IssueKind.class),
                            "destroyed by deployment " + deployment.id(), deployment.id(), now);
                }
            }
            default -> {
            }
        }
    }

    /** A check that ran: drift (destructive when putting it back deletes or replaces), or none, which resolves what was open. */
    private void checked(Deployment deployment, ResourceIdentity resource, JsonNode report, Instant now) {
        issues.resolve(deployment.environmentId(), resource, EnumSet.of(IssueKind.CHECK_FAILED), "checked by deployment "
                + deployment.id(), deployment.id(), now);
        boolean drifted = report.path("drifted").asBoolean(false);
        boolean changes = report.path("changes_pending").asBoolean(false);
        if (!drifted && !changes) {
            // a refresh-only check sees only what changed in the world, not a configuration that would change it:
            // it cannot tell that drift a full check found is gone
            if (!deployment.refreshOnly()) {
                issues.resolve(deployment.environmentId(), resource, DRIFT_KINDS, "no drift found by check " + deployment.id(),
                        deployment.id(), now);
            }
            return;
        }
        List<String> destructive = new ArrayList<>();
        for (JsonNode change : report.path("changes")) {
            if (containsDelete(change.path("actions"))) {
                destructive.add(change.path("address").asText() + (change.path("action_reason").isTextual()
                        ? " (" + change.path("action_reason").asText() + ")" : ""));
            }
        }
        IssueKind kind = destructive.isEmpty() ? IssueKind.DRIFT : IssueKind.DESTRUCTIVE_DRIFT;
        IssueKind other = kind == IssueKind.DRIFT ? IssueKind.DESTRUCTIVE_DRIFT : IssueKind.DRIFT;
        issues.resolve(deployment.environmentId(), resource, EnumSet.of(other), "the drift is now " + kind.wireName()
                + " (check " + deployment.id() + ")", deployment.id(), now);
        issues.open(deployment.orgId(), deployment.environmentId(), resource, kind, summary(report, destructive), report,
                deployment.id(), now);
    }

    private static String summary(JsonNode report, List<String> destructive) {
        List<String> drifted = new ArrayList<>();
        for (JsonNode drift : report.path("drift")) {
            List<String> paths = new ArrayList<>();
            drift.path("attributes").forEach(a -> paths.add(a.path("path").asText()));
            drifted.add(drift.path("address").asText() + (paths.isEmpty() ? "" : " (" + String.join(", ", paths) + ")"));
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
