package dev.polystack.platform.deployment;

import dev.polystack.platform.common.sql.ScalarQueries;
import dev.polystack.rules.ResourceIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The status of each resource's newest node outside checks in an environment: how the resource is, as far as
 * deployments know (a check's node says how the check went; its findings are the open issues).
 *
 * <p>The environment's deployments that are not checks (plans included) are walked newest first, in pages that grow
 * fourfold, until every wanted resource has a status or the history ends; each page reads the nodes of the resources
 * still without one. A deployment holds a node for every resource of its manifest, so the newest one nearly always
 * answers alone; only a deployment of some resources (a reconcile) sends the walk further back. Neither checks, which
 * a schedule adds without end, nor the older history are read.
 */
@ApplicationScoped
public class LatestNodeStatuses {

    /** One page of the environment's deployments that are not checks, newest first. */
    static final String NEWEST_DEPLOYMENTS = """
            select id from deployment where environment_id = ?1 and mode <> 'check'
            order by created_at desc, id desc offset ?2 limit ?3""";

    /** The nodes, outside checks, of some deployments (?1) for some resources (?2, ?3, ?4: types, classes, ids). */
    static final String NODES_OF = """
            select deployment_id, res_type, res_class, res_id, status from deployment_node
            where deployment_id = any(?1) and operation <> 'check'
              and (res_type, res_class, res_id) in (
                  select * from unnest(cast(?2 as text[]), cast(?3 as text[]), cast(?4 as text[])))""";

    private static final int FIRST_PAGE = 1;

    @Inject
    EntityManager entityManager;

    /** The status of each of {@code wanted} that has a node outside checks; call within a transaction. */
    public Map<ResourceIdentity, String> of(UUID environmentId, Set<ResourceIdentity> wanted) {
        Map<ResourceIdentity, String> statuses = new HashMap<>();
        int offset = 0;
        int page = FIRST_PAGE;
        while (statuses.size() < wanted.size()) {
            List<UUID> newest = ScalarQueries.of(entityManager, NEWEST_DEPLOYMENTS, "id", UUID.class)
                    .setParameter(1, environmentId)
                    .setParameter(2, offset)
                    .setParameter(3, page)
                    .getResultList();
            if (newest.isEmpty()) {
                break;
            }
            List<ResourceIdentity> missing = wanted.stream()
                    .filter(identity -> !statuses.containsKey(identity))
                    .toList();
            @SuppressWarnings("unchecked")
            List<Object[]> nodes = entityManager
                    .createNativeQuery(NODES_OF)
                    .setParameter(1, newest.toArray(UUID[]::new))
                    .setParameter(
                            2, missing.stream().map(ResourceIdentity::type).toArray(String[]::new))
                    .setParameter(
                            3,
                            missing.stream()
                                    .map(ResourceIdentity::resourceClass)
                                    .toArray(String[]::new))
                    .setParameter(4, missing.stream().map(ResourceIdentity::id).toArray(String[]::new))
                    .getResultList();
            // within the page, the newest deployment's node wins
            Map<UUID, Integer> rank = new HashMap<>();
            newest.forEach(id -> rank.put(id, rank.size()));
            Map<ResourceIdentity, Integer> rankOf = new HashMap<>();
            for (Object[] node : nodes) {
                ResourceIdentity identity = new ResourceIdentity((String) node[1], (String) node[2], (String) node[3]);
                int nodeRank = rank.get((UUID) node[0]);
                if (nodeRank < rankOf.getOrDefault(identity, Integer.MAX_VALUE)) {
                    rankOf.put(identity, nodeRank);
                    statuses.put(identity, (String) node[4]);
                }
            }
            if (newest.size() < page) {
                break;
            }
            offset += page;
            page *= 4;
        }
        return statuses;
    }
}
