package dev.polystack.platform.deployment;

import dev.polystack.rules.ResourceIdentity;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
class NodeRepository implements PanacheRepositoryBase<DeploymentNode, UUID> {

    List<DeploymentNode> of(UUID deploymentId) {
        return list("deploymentId = ?1 order by resId, resType, resClass", deploymentId);
    }

    DeploymentNode lock(UUID id) {
        return getEntityManager().find(DeploymentNode.class, id, LockModeType.PESSIMISTIC_WRITE);
    }

    void addEdge(UUID deploymentId, UUID from, UUID to, String alias) {
        getEntityManager().createNativeQuery(
                        "insert into deployment_edge (deployment_id, from_node, to_node, alias) values (?1, ?2, ?3, ?4) on conflict do nothing")
                .setParameter(1, deploymentId).setParameter(2, from).setParameter(3, to).setParameter(4, alias).executeUpdate();
    }

    /** Edges of a deployment: dependent → dependency, with the alias. */
    List<Edge> edges(UUID deploymentId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager().createNativeQuery(
                        "select from_node, to_node, alias from deployment_edge where deployment_id = ?1 order by from_node, to_node, alias")
                .setParameter(1, deploymentId).getResultList();
        List<Edge> edges = new ArrayList<>();
        for (Object[] row : rows) {
            edges.add(new Edge((UUID) row[0], (UUID) row[1], (String) row[2]));
        }
        return edges;
    }

    record Edge(UUID from, UUID to, String alias) {
    }

    static Map<UUID, Set<UUID>> dependencies(List<Edge> edges) {
        Map<UUID, Set<UUID>> map = new HashMap<>();
        edges.forEach(e -> map.computeIfAbsent(e.from(), k -> new HashSet<>()).add(e.to()));
        return map;
    }

    static Map<ResourceIdentity, DeploymentNode> byIdentity(List<DeploymentNode> nodes) {
        Map<ResourceIdentity, DeploymentNode> map = new HashMap<>();
        nodes.forEach(n -> map.put(n.identity(), n));
        return map;
    }
}
