package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.JsonTreeJavaType;
import dev.polystack.platform.common.sql.ScalarQueries;
import dev.polystack.platform.common.sql.SqlTimes;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.environment.EnvironmentStatus;
import dev.polystack.rules.ResourceIdentity;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.hibernate.FlushMode;
import org.hibernate.LockMode;
import org.hibernate.Session;

import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
public class NodeRepository implements PanacheRepositoryBase<DeploymentNode, UUID> {

    public List<DeploymentNode> of(UUID deploymentId) {
        return list("deploymentId = ?1 order by resId, resType, resClass", deploymentId);
    }

    /** The identities of a deployment's nodes of one operation. */
    public Set<ResourceIdentity> identities(UUID deploymentId, NodeOperation operation) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .createNativeQuery(
                        "select res_type, res_class, res_id from deployment_node where deployment_id = ?1 and operation = ?2")
                .setParameter(1, deploymentId)
                .setParameter(2, operation.wireName())
                .getResultList();
        Set<ResourceIdentity> identities = new HashSet<>();
        rows.forEach(row -> identities.add(new ResourceIdentity((String) row[0], (String) row[1], (String) row[2])));
        return identities;
    }

    /**
     * Status and operation of every node of a deployment, without loading the nodes themselves (their
     * specs and resolved inputs): what deciding the next step needs, cheap enough for every job end.
     * Flushes first, so that changes made in this transaction are seen.
     */
    public List<NodeState> states(UUID deploymentId) {
        getEntityManager().flush();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .createNativeQuery(
                        "select id, status, operation from deployment_node where deployment_id = ?1 order by res_id, res_type, res_class")
                .setParameter(1, deploymentId)
                .getResultList();
        List<NodeState> states = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            states.add(new NodeState(
                    (UUID) row[0], NodeStatus.fromWire((String) row[1]), NodeOperation.fromWire((String) row[2])));
        }
        return states;
    }

    /**
     * What a deployment's view shows of each node, in the order of {@link #of}, read without loading the nodes as
     * entities: their specs and sealed inputs, which a view does not show, are neither read nor parsed. Flushes the
     * session first, so that a view made in the transaction that changed its nodes shows the changes.
     */
    public List<NodeSummary> summaries(UUID deploymentId) {
        getEntityManager().flush();
        return InTransaction.queryAll(
                getEntityManager(),
                """
                select res_type, res_class, res_id, path, operation, action, status, module_slug, module_version,
                       runner_id, attempt, plan_summary::text, error, queued_at, started_at, finished_at
                from deployment_node where deployment_id = ? order by res_id, res_type, res_class""",
                row -> new NodeSummary(
                        new ResourceIdentity(row.getString(1), row.getString(2), row.getString(3)),
                        row.getString(4),
                        NodeOperation.fromWire(row.getString(5)),
                        row.getString(6),
                        NodeStatus.fromWire(row.getString(7)),
                        row.getString(8),
                        row.getObject(9, Integer.class),
                        row.getObject(10, UUID.class),
                        row.getInt(11),
                        row.getString(12) == null ? null : JsonTreeJavaType.parse(row.getString(12)),
                        row.getString(13),
                        SqlTimes.instant(row.getObject(14, OffsetDateTime.class)),
                        SqlTimes.instant(row.getObject(15, OffsetDateTime.class)),
                        SqlTimes.instant(row.getObject(16, OffsetDateTime.class))),
                deploymentId);
    }

    /** A node as a deployment's view shows it ({@link #summaries}). */
    public record NodeSummary(
            ResourceIdentity identity,
            String path,
            NodeOperation operation,
            String action,
            NodeStatus status,
            String moduleSlug,
            Integer moduleVersion,
            UUID runnerId,
            int attempt,
            JsonNode planSummary,
            String error,
            Instant queuedAt,
            Instant startedAt,
            Instant finishedAt) {}

    /** A node's place in the graph and its status, which the engine updates as it acts on the node. */
    public static final class NodeState {
        public final UUID id;
        public final NodeOperation operation;
        public NodeStatus status;

        public NodeState(UUID id, NodeStatus status, NodeOperation operation) {
            this.id = id;
            this.status = status;
            this.operation = operation;
        }
    }

    /**
     * The dependencies of a plan node whose plan shows a change (anything added, changed or destroyed), or
     * could not be planned yet; a dependency found unchanged without a plan does not change.
     */
    public Set<ResourceIdentity> dependenciesWithPlannedChanges(UUID deploymentId, UUID nodeId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .createNativeQuery(
                        "select n.res_type, n.res_class, n.res_id from deployment_edge e join deployment_node n on n.id = e.to_node"
                                + " where e.deployment_id = ?1 and e.from_node = ?2 and n.status <> 'unchanged' and (n.plan_summary is null"
                                + " or n.plan_summary ->> 'known_after_apply' is not null"
                                + " or coalesce((n.plan_summary->>'add')::int, 0) + coalesce((n.plan_summary->>'change')::int, 0)"
                                + " + coalesce((n.plan_summary->>'destroy')::int, 0) > 0)")
                .setParameter(1, deploymentId)
                .setParameter(2, nodeId)
                .getResultList();
        Set<ResourceIdentity> identities = new HashSet<>();
        rows.forEach(row -> identities.add(new ResourceIdentity((String) row[0], (String) row[1], (String) row[2])));
        return identities;
    }

    /** The status of each of these nodes. */
    public Map<UUID, NodeStatus> statuses(Collection<UUID> ids) {
        getEntityManager().flush();
        Map<UUID, NodeStatus> statuses = new HashMap<>();
        if (ids.isEmpty()) {
            return statuses;
        }
        // flushed once above; a native query would flush (and dirty-check every loaded node) again
        InTransaction.queryAll(
                getEntityManager(),
                "select id, status from deployment_node where id = any(?)",
                row -> statuses.put(row.getObject(1, UUID.class), NodeStatus.fromWire(row.getString(2))),
                (Object) ids.toArray(new UUID[0]));
        return statuses;
    }

    /** The order in which a deployment's nodes are dispatched: by resource id, then type, then class. */
    private static final Comparator<DeploymentNode> RESOURCE_ORDER = Comparator.comparing(
                    (DeploymentNode node) -> node.identity().id())
            .thenComparing(node -> node.identity().type())
            .thenComparing(node -> node.identity().resourceClass());

    /**
     * These nodes, in one statement, in the order of their resource ids (compared as Java strings). Loaded by id:
     * a query would be translated again for every number of ids, and flush first. Nothing is flushed; a node this
     * session holds already is returned as it is, with its unflushed changes; an id that is not a node is left
     * out.
     */
    public List<DeploymentNode> byIds(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<DeploymentNode> found = new ArrayList<>(
                getEntityManager().unwrap(Session.class).findMultiple(DeploymentNode.class, List.copyOf(ids)));
        found.removeIf(Objects::isNull);
        found.sort(RESOURCE_ORDER);
        return found;
    }

    /**
     * Whether one of these nodes has not ended, counting what this transaction changed: the look stops at the first
     * such node. Sent through the session (flushed once here, then not again), so that tests see it.
     */
    public boolean anyUnfinishedAmong(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return false;
        }
        getEntityManager().flush();
        return ScalarQueries.of(
                        getEntityManager(),
                        "select exists (select 1 from deployment_node where id = any(:ids)"
                                + " and status in ('pending', 'queued', 'running')) as unfinished",
                        "unfinished",
                        Boolean.class)
                .setHibernateFlushMode(FlushMode.MANUAL)
                .setParameter("ids", ids.toArray(new UUID[0]))
                .getSingleResult();
    }

    public DeploymentNode lock(UUID id) {
        return getEntityManager().find(DeploymentNode.class, id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** A node whose job is being claimed, and the environment its deployment deploys to. */
    public record ForClaim(DeploymentNode node, EnvironmentRef environment) {}

    /**
     * Locks a node (as {@link #lock} does) and reads its deployment's environment, in one statement: a claim used
     * to send two. The session is not flushed first (nothing this reads is written through it), and the node is
     * registered as locked.
     */
    public ForClaim lockForClaim(UUID nodeId) {
        Object[] row = getEntityManager()
                .unwrap(Session.class)
                .createNativeQuery("""
                        select {n.*}, e.id as env_id, e.org_id as env_org, o.slug as org_slug, p.slug as project_slug,
                          e.slug as env_slug, t.slug as env_type_slug, e.status as env_status
                        from deployment_node n
                          join deployment d on d.id = n.deployment_id
                          join environment e on e.id = d.environment_id
                          join project p on p.id = e.project_id
                          join organization o on o.id = e.org_id
                          join env_type t on t.id = e.env_type_id
                        where n.id = :node
                        for no key update of n""", Object[].class)
                .addEntity("n", DeploymentNode.class, LockMode.PESSIMISTIC_WRITE)
                .addScalar("env_id", UUID.class)
                .addScalar("env_org", UUID.class)
                .addScalar("org_slug", String.class)
                .addScalar("project_slug", String.class)
                .addScalar("env_slug", String.class)
                .addScalar("env_type_slug", String.class)
                .addScalar("env_status", String.class)
                .setHibernateFlushMode(FlushMode.MANUAL)
                .setParameter("node", nodeId)
                .getSingleResult();
        return new ForClaim(
                (DeploymentNode) row[0],
                new EnvironmentRef(
                        (UUID) row[1],
                        (UUID) row[2],
                        (String) row[3],
                        (String) row[4],
                        (String) row[5],
                        (String) row[6],
                        new EnvironmentStatus.ColumnConverter().convertToEntityAttribute((String) row[7])));
    }

    /**
     * Adds a deployment's edges in one JDBC batch, after one flush of the nodes they join. (A native
     * insert per edge made Hibernate flush, and so dirty-check every node, once per edge.)
     */
    public void addEdges(UUID deploymentId, List<Edge> edges) {
        getEntityManager().flush();
        if (edges.isEmpty()) {
            return;
        }
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into deployment_edge (deployment_id, from_node, to_node, alias) values (?, ?, ?, ?) on conflict do nothing")) {
                for (Edge edge : edges) {
                    insert.setObject(1, deploymentId);
                    insert.setObject(2, edge.from());
                    insert.setObject(3, edge.to());
                    insert.setString(4, edge.alias());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        });
    }

    /** Edges of a deployment: dependent → dependency, with the alias. */
    public List<Edge> edges(UUID deploymentId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .createNativeQuery(
                        "select from_node, to_node, alias from deployment_edge where deployment_id = ?1 order by from_node, to_node, alias")
                .setParameter(1, deploymentId)
                .getResultList();
        List<Edge> edges = new ArrayList<>();
        for (Object[] row : rows) {
            edges.add(new Edge((UUID) row[0], (UUID) row[1], (String) row[2]));
        }
        return edges;
    }

    public record Edge(UUID from, UUID to, String alias) {}

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
