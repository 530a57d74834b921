package dev.polystack.platform.audit;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Appends to and reads the audit log. There is no update and no delete. */
@ApplicationScoped
public class AuditService {

    @Inject
    EntityManager entityManager;

    @Inject
    Clock clock;

    /** The one piece of an event the HTTP layer knows. */
    public record Entry(
            UUID orgId,
            String orgSlug,
            UUID actorId,
            String actorName,
            String actorKind,
            String action,
            String method,
            String target,
            String requestId,
            int status) {}

    /** An event in the caller's transaction: it is kept only if what it records is. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void appendWithin(Entry entry) {
        append(entry);
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void append(Entry entry) {
        entityManager.persist(new AuditEvent(
                entry.orgId(),
                entry.orgSlug(),
                clock.instant(),
                entry.actorId(),
                entry.actorName(),
                entry.actorKind(),
                entry.action(),
                entry.method(),
                entry.target(),
                entry.requestId(),
                entry.status()));
    }

    /** An organization's log. Filters: actor name, action, target prefix, time range; newest first. */
    @Transactional
    public Page<AuditEventView> list(
            OrgScope scope, String actor, String action, String target, Instant from, Instant to, PageRequest page) {
        StringBuilder jpql = new StringBuilder("select e from AuditEvent e where e.orgId = :org");
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("org", scope.orgId());
        return list(jpql, parameters, actor, action, target, from, to, page);
    }

    /**
     * The instance-level log: what no organization's log holds, such as attempts on an organization by
     * callers who are not its members. The same filters, and the organization's slug.
     */
    @Transactional
    public Page<AuditEventView> listInstance(
            String org, String actor, String action, String target, Instant from, Instant to, PageRequest page) {
        StringBuilder jpql = new StringBuilder("select e from AuditEvent e where e.orgId is null");
        Map<String, Object> parameters = new LinkedHashMap<>();
        if (org != null) {
            jpql.append(" and e.orgSlug = :slug");
            parameters.put("slug", org);
        }
        return list(jpql, parameters, actor, action, target, from, to, page);
    }

    private Page<AuditEventView> list(
            StringBuilder jpql,
            Map<String, Object> parameters,
            String actor,
            String action,
            String target,
            Instant from,
            Instant to,
            PageRequest page) {
        int limit = page.limit();
        if (actor != null) {
            jpql.append(" and e.actorName = :actor");
            parameters.put("actor", actor);
        }
        if (action != null) {
            jpql.append(" and e.action = :action");
            parameters.put("action", action);
        }
        if (target != null) {
            // the escape character named: without it Hibernate writes `escape ''`, which turns escaping off, and
            // an escaped _ or % would then match only a backslash before it
            jpql.append(" and e.target like :target escape '\\'");
            parameters.put(
                    "target", target.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        if (from != null) {
            jpql.append(" and e.occurredAt >= :from");
            parameters.put("from", from);
        }
        if (to != null) {
            jpql.append(" and e.occurredAt < :to");
            parameters.put("to", to);
        }
        PageRequest.InstantAndId after = page.afterInstantAndId();
        if (after != null) {
            parameters.put("afterTime", after.instant());
            parameters.put("afterId", after.id());
            // one row comparison, which the index's order answers from where the page starts; PostgreSQL
            // cannot look an `or` of the two up in the index: it reads every row newer than the page's start, or,
            // when it expects few of them, reads the organization's events and sorts them
            jpql.append(" and (e.occurredAt, e.id) < (:afterTime, :afterId)");
        }
        jpql.append(" order by e.occurredAt desc, e.id desc");
        TypedQuery<AuditEvent> query =
                entityManager.createQuery(jpql.toString(), AuditEvent.class).setMaxResults(limit + 1);
        parameters.forEach(query::setParameter);
        List<AuditEvent> rows = new ArrayList<>(query.getResultList());
        return Page.of(rows, limit, e -> e.occurredAt() + "|" + e.id(), AuditEventView::of);
    }
}
