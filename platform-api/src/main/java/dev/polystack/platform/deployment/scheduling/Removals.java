package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentMode;
import dev.polystack.platform.deployment.model.DeploymentNode;
import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.resource.ActiveResource;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.resource.ResourceDependency;
import dev.polystack.rules.ResourceIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What a deployment removes, decided when it starts (not when it was created): every resource the
 * environment holds then that the deployment does not apply. A deployment created while another ran
 * therefore also removes what that one added and it drops. Dependents are removed first.
 */
@ApplicationScoped
public class Removals {

    @Inject
    NodeRepository nodes;

    @Inject
    ActiveResourceService activeResources;

    /**
     * Adds a destroy node for each active resource the starting deployment does not keep. Under the
     * environment's lock. A rollback keeps what its target had in its graph (re-applying what the target
     * applied, leaving as they are the resources the target failed or skipped), and destroys the others
     * only when it was allowed to.
     */
    void add(Deployment deployment) {
        if (deployment.mode() == DeploymentMode.ROLLBACK && !deployment.allowDestroy()) {
            return;
        }
        Set<ResourceIdentity> kept = kept(deployment);
        if (kept == null) {
            return;
        }
        Map<ResourceIdentity, DeploymentNode> removals = new HashMap<>();
        List<ActiveResource> active = activeResources.of(deployment.environmentId());
        for (ActiveResource resource : active) {
            if (kept.contains(resource.identity())) {
                continue;
            }
            DeploymentNode node = new DeploymentNode(
                    deployment.id(),
                    resource.identity(),
                    "active." + resource.identity(),
                    NodeOperation.DESTROY,
                    resource.moduleId(),
                    resource.moduleSlug(),
                    resource.moduleVersion(),
                    resource.runnerId(),
                    resource.spec());
            nodes.persist(node);
            removals.put(resource.identity(), node);
        }
        List<NodeRepository.Edge> edges = new ArrayList<>();
        for (ActiveResource resource : active) {
            DeploymentNode from = removals.get(resource.identity());
            if (from == null) {
                continue;
            }
            for (ResourceDependency dependency : resource.dependencies()) {
                DeploymentNode to = removals.get(dependency.resource());
                if (to != null) {
                    edges.add(new NodeRepository.Edge(from.id(), to.id(), dependency.alias()));
                }
            }
        }
        nodes.addEdges(deployment.id(), edges);
    }

    /** What a deployment keeps of the active resources; null when it removes nothing (plans, checks, reconciles). */
    Set<ResourceIdentity> kept(Deployment deployment) {
        if (deployment.targets() != null) {
            return null; // limited to some resources (a reconcile): it removes nothing
        }
        return switch (deployment.mode()) {
            case DEPLOY -> nodes.identities(deployment.id(), NodeOperation.APPLY);
            case ROLLBACK -> {
                Set<ResourceIdentity> kept = new HashSet<>(nodes.identities(deployment.id(), NodeOperation.APPLY));
                kept.addAll(nodes.identities(deployment.rollbackOf(), NodeOperation.APPLY));
                yield kept;
            }
            case DESTROY -> Set.of();
            case PLAN, CHECK, DRY_RUN -> null;
        };
    }

    /** The live resources a rollback to {@code target} would destroy: those the target did not have in its graph. */
    public SortedSet<String> outsideOf(UUID environmentId, UUID target) {
        Set<ResourceIdentity> had = nodes.identities(target, NodeOperation.APPLY);
        SortedSet<String> outside = new TreeSet<>();
        activeResources.of(environmentId).stream()
                .map(ActiveResource::identity)
                .filter(id -> !had.contains(id))
                .forEach(id -> outside.add(id.toString()));
        return outside;
    }
}
