package dev.polystack.platform.deployment.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reading a deployment's logs, in the order they were stored. Lines were masked before storage. */
@ApplicationScoped
public class LogService {

    @Inject
    EntityManager entityManager;

    @Inject
    EnvironmentService environments;

    @Inject
    DeploymentRepository deployments;

    @Inject
    ObjectMapper json;

    @Inject
    LogSettings settings;

    /** A position in a deployment's logs: the stored position of the last batch read. */
    public record Cursor(long sequence) {}

    /**
     * Lines after the cursor, batch by batch, optionally of one node ({@code type/class/id}).
     * The page token is the position of the last batch returned.
     */
    @Transactional
    public Page<LogLine> read(
            OrgScope scope, String project, String env, UUID deploymentId, String node, PageRequest page) {
        kept(scope, project, env, deploymentId);
        long after;
        try {
            after = page.after() == null ? 0 : Long.parseLong(page.after());
        } catch (NumberFormatException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        int limit = page.limit();
        List<Batch> batches = batches(deploymentId, node, after, limit + 1);
        boolean more = batches.size() > limit;
        List<Batch> shown = more ? batches.subList(0, limit) : batches;
        List<LogLine> lines = new ArrayList<>();
        shown.forEach(b -> lines.addAll(b.lines()));
        long last = shown.isEmpty() ? after : shown.get(shown.size() - 1).sequence();
        // an opaque token like every other page's: PageRequest.after() decodes it
        return new Page<>(lines, more ? PageRequest.tokenFor(Long.toString(last)) : null);
    }

    /** Batches after a position, for following live. */
    @Transactional
    public List<Batch> after(UUID deploymentId, String node, long sequence, int limit) {
        return batches(deploymentId, node, sequence, limit);
    }

    @Transactional
    public boolean finished(UUID deploymentId) {
        Deployment deployment = deployments.findById(deploymentId);
        return deployment == null || deployment.status().isTerminal();
    }

    /** Checks access and returns the deployment id, for following. */
    @Transactional
    public UUID requireDeployment(OrgScope scope, String project, String env, UUID deploymentId) {
        return kept(scope, project, env, deploymentId).id();
    }

    /** The deployment, when the caller may read it and its logs are still kept (else 404 or 410). */
    private Deployment kept(OrgScope scope, String project, String env, UUID deploymentId) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Deployment deployment = deployments
                .find(environment.id(), deploymentId)
                .orElseThrow(() -> PlatformException.notFound(
                        "deployment `" + deploymentId + "` of `" + environment.path() + "`"));
        if (deployment.logsRemovedAt() != null) {
            throw new PlatformException(
                    ProblemType.GONE,
                    "the logs of deployment `" + deploymentId + "` were removed on "
                            + deployment.logsRemovedAt() + ": logs are kept for "
                            + LogSettings.describe(settings.retention())
                            + " after a deployment ends (POLYSTACK_DEPLOYMENT_LOGS_RETENTION)");
        }
        return deployment;
    }

    /**
     * A line of the engine's own about a node, e.g. why its inputs could not be resolved: it has no job, so
     * it is stored as a batch of its own beside the job's batches. Call inside the engine's transaction.
     */
    public void appendNodeLine(UUID deploymentId, UUID nodeId, String level, String type, String message, Instant now) {
        var lines = json.createArrayNode();
        lines.addObject()
                .put("time", now.toString())
                .put("level", level)
                .put("type", type)
                .put("message", message);
        store(deploymentId, nodeId, null, 0, lines.toString(), now);
    }

    /**
     * Stores a batch at the deployment's next position. The position comes from a counter row of the
     * deployment that stays locked until this transaction commits: positions become visible in order, so a
     * reader that has seen position n has seen everything before it, and a position never changes. A batch
     * already stored (a retry) is not stored twice; its position stays unused.
     */
    public void store(UUID deploymentId, UUID nodeId, UUID jobId, int batch, String lines, Instant now) {
        long seq = ((Number) entityManager
                        .createNativeQuery("""
                        insert into deployment_log_counter (deployment_id, last_seq) values (?1, 1)
                        on conflict (deployment_id) do update set last_seq = deployment_log_counter.last_seq + 1
                        returning last_seq""")
                        .setParameter(1, deploymentId)
                        .getSingleResult())
                .longValue();
        entityManager
                .createNativeQuery("""
                        insert into job_log (job_id, batch, deployment_id, node_id, lines, created_at, seq)
                        values (?1, ?2, ?3, ?4, cast(?5 as jsonb), ?6, ?7) on conflict do nothing""")
                .setParameter(1, jobId)
                .setParameter(2, batch)
                .setParameter(3, deploymentId)
                .setParameter(4, nodeId)
                .setParameter(5, lines)
                .setParameter(6, now)
                .setParameter(7, seq)
                .executeUpdate();
    }

    /** Whether a job's batch of that number is stored. */
    public boolean hasBatch(UUID jobId, int batch) {
        return !entityManager
                .createNativeQuery("select 1 from job_log where job_id = ?1 and batch = ?2")
                .setParameter(1, jobId)
                .setParameter(2, batch)
                .getResultList()
                .isEmpty();
    }

    private UUID nodeId(UUID deploymentId, String node) {
        String[] parts = node.split("/", 3);
        if (parts.length != 3) {
            return null;
        }
        @SuppressWarnings("unchecked")
        List<UUID> ids = entityManager
                .createNativeQuery("select id from deployment_node where deployment_id = ?1 and res_type = ?2"
                        + " and res_class = ?3 and res_id = ?4")
                .setParameter(1, deploymentId)
                .setParameter(2, parts[0])
                .setParameter(3, parts[1])
                .setParameter(4, parts[2])
                .getResultList();
        return ids.isEmpty() ? null : ids.get(0);
    }

    /** A stored batch and its lines. */
    public record Batch(long sequence, List<LogLine> lines) {}

    /** Batches after a position, by their stored position: one index range, whatever the deployment's size. */
    private List<Batch> batches(UUID deploymentId, String node, long after, int limit) {
        UUID nodeId = null;
        if (node != null) {
            nodeId = nodeId(deploymentId, node);
            if (nodeId == null) {
                return List.of();
            }
        }
        var query = entityManager
                .createNativeQuery("""
                select l.seq, n.res_type || '/' || n.res_class || '/' || n.res_id, l.job_id, coalesce(j.attempt, n.attempt),
                       l.batch, l.lines::text
                from job_log l
                join deployment_node n on n.id = l.node_id
                left join job j on j.id = l.job_id
                where\s""" + (nodeId == null ? "l.deployment_id = ?1" : "l.node_id = ?1")
                        + " and l.seq > ?2 order by l.seq limit " + limit)
                .setParameter(1, nodeId == null ? deploymentId : nodeId)
                .setParameter(2, after);
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.getResultList();
        List<Batch> batches = new ArrayList<>();
        for (Object[] row : rows) {
            JsonNode lines;
            try {
                lines = json.readTree((String) row[5]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<LogLine> out = new ArrayList<>();
            int index = 0;
            for (JsonNode line : lines) {
                out.add(new LogLine(
                        (String) row[1],
                        (UUID) row[2],
                        ((Number) row[3]).intValue(),
                        ((Number) row[4]).intValue(),
                        index++,
                        line.path("time").asText(null),
                        line.path("level").asText(null),
                        line.path("type").asText(null),
                        line.path("message").asText("")));
            }
            batches.add(new Batch(((Number) row[0]).longValue(), out));
        }
        return batches;
    }
}
