package dev.polystack.platform.issue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.webhook.WebhookEvent;
import dev.polystack.platform.webhook.WebhookService;
import dev.polystack.rules.ResourceIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The issues of environments: opened or seen again, and resolved, by the engine in the transaction that
 * records what a check or a deployment found; listed and acknowledged by people. At most one issue of a kind
 * is open per resource: seeing it again updates it.
 */
@ApplicationScoped
public class IssueService {

    /** The longest summary stored; the detail holds the rest. */
    static final int MAX_SUMMARY = 2048;

    @Inject
    EntityManager entityManager;

    @Inject
    EnvironmentService environments;

    @Inject
    Clock clock;

    @Inject
    WebhookService webhooks;

    /** A deviation seen now: opens an issue of its kind for the resource, or updates the open one. */
    public void open(
            UUID orgId,
            UUID environmentId,
            ResourceIdentity resource,
            IssueKind kind,
            String summary,
            JsonNode detail,
            UUID seenBy,
            Instant now) {
        String shortSummary = summary.length() <= MAX_SUMMARY ? summary : summary.substring(0, MAX_SUMMARY - 1) + "…";
        // an upsert on the partial unique index: two recorders of one resource cannot open it twice
        Object[] row = (Object[]) entityManager
                .createNativeQuery("""
                        insert into issue (id, org_id, environment_id, res_type, res_class, res_id, kind, state, summary, detail,
                                           first_seen, last_seen, seen_by)
                        values (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'open', ?8, cast(?9 as jsonb), ?10, ?10, ?11)
                        on conflict (environment_id, res_type, res_class, res_id, kind) where state = 'open'
                        do update set summary = excluded.summary, detail = excluded.detail, last_seen = excluded.last_seen,
                                      seen_by = excluded.seen_by, version = issue.version + 1
                        returning id, (xmax = 0)""")
                .setParameter(1, UUID.randomUUID())
                .setParameter(2, orgId)
                .setParameter(3, environmentId)
                .setParameter(4, resource.type())
                .setParameter(5, resource.resourceClass())
                .setParameter(6, resource.id())
                .setParameter(7, kind.wireName())
                .setParameter(8, shortSummary)
                .setParameter(9, detail == null ? null : detail.toString())
                .setParameter(10, now)
                .setParameter(11, seenBy)
                .getSingleResult();
        if (Boolean.TRUE.equals(row[1])) {
            announce(
                    orgId, environmentId, WebhookEvent.ISSUE_OPENED, (UUID) row[0], resource, kind, shortSummary, null);
        }
    }

    /** Tells the organization's webhooks of an issue opened or resolved, when any asked for it. */
    private void announce(
            UUID orgId,
            UUID environmentId,
            String type,
            UUID id,
            ResourceIdentity resource,
            IssueKind kind,
            String summary,
            String resolution) {
        if (!webhooks.subscribed(orgId, type)) {
            return;
        }
        Object[] names = (Object[]) entityManager
                .createNativeQuery(
                        "select p.slug, e.slug from environment e join project p on p.id = e.project_id where e.id = ?1")
                .setParameter(1, environmentId)
                .getSingleResult();
        ObjectNode data = JsonNodeFactory.instance
                .objectNode()
                .put("id", id.toString())
                .put("project", (String) names[0])
                .put("env", (String) names[1])
                .put("resource", resource.toString())
                .put("kind", kind.wireName())
                .put("summary", summary);
        if (resolution != null) {
            data.put("resolution", resolution);
        }
        webhooks.publish(orgId, type, "issue:" + id, data);
    }

    /** An issue a resolution closed. */
    private record Resolved(UUID id, IssueKind kind, UUID orgId, String summary) {}

    /** The deviations of these kinds are gone: resolves the resource's open issues of them, saying what showed it. */
    public int resolve(
            UUID environmentId,
            ResourceIdentity resource,
            Set<IssueKind> kinds,
            String resolution,
            UUID resolvedBy,
            Instant now) {
        return resolve(environmentId, resource, kinds, resolution, resolvedBy, now, List.of());
    }

    /** The same, sending {@code before} (writes of the same transaction) in the round trip of its statement. */
    public int resolve(
            UUID environmentId,
            ResourceIdentity resource,
            Set<IssueKind> kinds,
            String resolution,
            UUID resolvedBy,
            Instant now,
            List<Statement> before) {
        if (kinds.isEmpty()) {
            InTransaction.executeAll(entityManager, before);
            return 0;
        }
        // a plain statement, without flushing the session first (the engine resolves in every successful result's
        // transaction): the engine writes issues only by statements, and a person's acknowledgement, the one change
        // made through an entity, has a transaction of its own
        List<Resolved> resolved = InTransaction.queryAllAfter(
                entityManager,
                before,
                """
                update issue set state = 'resolved', resolved_at = ?, resolved_by = ?, resolution = ?, version = version + 1
                where environment_id = ? and res_type = ? and res_class = ? and res_id = ? and state = 'open'
                  and kind = any(?)
                returning id, kind, org_id, summary""",
                row -> new Resolved(
                        row.getObject(1, UUID.class),
                        IssueKind.fromWire(row.getString(2), "kind"),
                        row.getObject(3, UUID.class),
                        row.getString(4)),
                now,
                resolvedBy,
                resolution,
                environmentId,
                resource.type(),
                resource.resourceClass(),
                resource.id(),
                kinds.stream().map(IssueKind::wireName).toArray(String[]::new));
        for (Resolved issue : resolved) {
            announce(
                    issue.orgId(),
                    environmentId,
                    WebhookEvent.ISSUE_RESOLVED,
                    issue.id(),
                    resource,
                    issue.kind(),
                    issue.summary(),
                    resolution);
        }
        return resolved.size();
    }

    /** Whether the resource has an open issue of this kind. */
    public boolean isOpen(UUID environmentId, ResourceIdentity resource, IssueKind kind) {
        return !entityManager
                .createNativeQuery("""
                        select 1 from issue where environment_id = ?1 and res_type = ?2 and res_class = ?3 and res_id = ?4
                          and kind = ?5 and state = 'open'""")
                .setParameter(1, environmentId)
                .setParameter(2, resource.type())
                .setParameter(3, resource.resourceClass())
                .setParameter(4, resource.id())
                .setParameter(5, kind.wireName())
                .setMaxResults(1)
                .getResultList()
                .isEmpty();
    }

    /** What a list is filtered by; nulls filter nothing. */
    public record Filter(String kind, String state, String resource) {}

    @Transactional
    public Page<IssueView> list(OrgScope scope, String project, String env, Filter filter, PageRequest page) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        return list(scope.orgId(), environment.id(), filter, page);
    }

    @Transactional
    public Page<IssueView> list(OrgScope scope, Filter filter, PageRequest page) {
        return list(scope.orgId(), null, filter, page);
    }

    private Page<IssueView> list(UUID orgId, UUID environmentId, Filter filter, PageRequest page) {
        // an environment's list names only the environment, which was found in the organization: with both, the
        // two indexes would look alike to the planner
        StringBuilder jpql = new StringBuilder("select i from Issue i where ");
        Map<String, Object> parameters = new LinkedHashMap<>();
        if (environmentId != null) {
            jpql.append("i.environmentId = :environment");
            parameters.put("environment", environmentId);
        } else {
            jpql.append("i.orgId = :org");
            parameters.put("org", orgId);
        }
        if (filter.kind() != null) {
            jpql.append(" and i.kind = :kind");
            parameters.put("kind", IssueKind.fromWire(filter.kind(), "kind").wireName());
        }
        if (filter.state() != null) {
            // a literal, not a parameter: the open issues' indexes hold only them, and a plan made for any state
            // could not use them
            switch (filter.state()) {
                case "open" -> jpql.append(" and i.state = 'open'");
                case "resolved" -> jpql.append(" and i.state = 'resolved'");
                default -> throw PlatformException.invalid("state", "must be open or resolved");
            }
        }
        if (filter.resource() != null) {
            String[] parts = filter.resource().split("/", 3);
            if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
                throw PlatformException.invalid(
                        "resource", "must be type/class/id, such as postgres/default/checkout.db");
            }
            jpql.append(" and i.resType = :type and i.resClass = :class and i.resId = :id");
            parameters.put("type", parts[0]);
            parameters.put("class", parts[1]);
            parameters.put("id", parts[2]);
        }
        PageRequest.InstantAndId after = page.afterInstantAndId();
        if (after != null) {
            parameters.put("afterTime", after.instant());
            parameters.put("afterId", after.id());
            // one row comparison, which the index's order answers from where the page starts (see AuditService)
            jpql.append(" and (i.firstSeen, i.id) < (:afterTime, :afterId)");
        }
        jpql.append(" order by i.firstSeen desc, i.id desc");
        TypedQuery<Issue> query =
                entityManager.createQuery(jpql.toString(), Issue.class).setMaxResults(page.limit() + 1);
        parameters.forEach(query::setParameter);
        List<Issue> rows = new ArrayList<>(query.getResultList());
        Map<UUID, String[]> names =
                names(rows.stream().map(Issue::environmentId).distinct().toList());
        return Page.of(rows, page.limit(), i -> i.firstSeen() + "|" + i.id(), i -> {
            String[] name = names.getOrDefault(i.environmentId(), new String[] {null, null});
            return IssueView.of(i, name[0], name[1]);
        });
    }

    /** Acknowledges an issue with a comment: it stays open until the deviation is gone, but someone has seen it. */
    @Transactional
    public IssueView acknowledge(OrgScope scope, String project, String env, UUID id, String comment) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Issue issue = entityManager.find(Issue.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (issue == null || !issue.environmentId().equals(environment.id())) {
            throw PlatformException.notFound("issue " + id + " of environment `" + environment.path() + "`");
        }
        issue.acknowledge(scope.caller().name(), comment, clock.instant());
        return IssueView.of(issue, environment.project(), environment.env());
    }

    /** project and environment slugs by environment id. */
    private Map<UUID, String[]> names(Collection<UUID> environmentIds) {
        Map<UUID, String[]> names = new HashMap<>();
        if (environmentIds.isEmpty()) {
            return names;
        }
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery(
                        "select e.id, p.slug, e.slug from environment e join project p on p.id = e.project_id where e.id in (?1)")
                .setParameter(1, environmentIds)
                .getResultList();
        rows.forEach(row -> names.put((UUID) row[0], new String[] {(String) row[1], (String) row[2]}));
        return names;
    }
}
