package dev.polystack.platform.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.sql.SqlTimes;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;

/**
 * Webhook subscriptions, and the outbox: {@link #publish} writes one delivery per subscription that asked
 * for the event, in the transaction of the event itself, so that an event is delivered if and only if it
 * happened. {@link WebhookDispatcher} sends them.
 */
@ApplicationScoped
public class WebhookService {

    @Inject
    EntityManager entityManager;

    @Inject
    SecretBox secretBox;

    @Inject
    WebhookSettings settings;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    /** Makes a subscription and queues its test delivery ({@code ping}); the answer carries the secret, once. */
    @Transactional
    public WebhookView create(OrgScope scope, CreateWebhookRequest request) {
        URI url = checkedUrl(request.url());
        List<String> events = new ArrayList<>(new LinkedHashSet<>(request.events()));
        for (int i = 0; i < events.size(); i++) {
            if (!WebhookEvent.ALL.contains(events.get(i))) {
                throw PlatformException.invalid(
                        "/events/" + i, "must be one of " + String.join(", ", WebhookEvent.ALL));
            }
        }
        Instant now = clock.instant();
        UUID id = UUID.randomUUID();
        WebhookSubscription subscription = new WebhookSubscription(
                id,
                scope.orgId(),
                url.toString(),
                events,
                request.description(),
                scope.caller().name(),
                now);
        String secret = WebhookSignature.newSecret();
        subscription.seal(
                secretBox.seal(secret.getBytes(StandardCharsets.UTF_8), WebhookSubscription.secretBinding(id)));
        entityManager.persist(subscription);
        entityManager.flush();
        ObjectNode data =
                json.createObjectNode().put("subscription", id.toString()).put("org", scope.orgSlug());
        enqueue(subscription.id(), scope.orgId(), WebhookEvent.PING, "subscription:" + id, data, now);
        return WebhookView.of(subscription, secret);
    }

    @Transactional
    public Page<WebhookView> list(OrgScope scope, PageRequest page) {
        PageRequest.InstantAndId after = page.afterInstantAndId();
        var query = entityManager
                .createQuery(
                        "select s from WebhookSubscription s where s.orgId = :org"
                                + (after == null ? "" : " and (s.createdAt > :t or (s.createdAt = :t and s.id > :id))")
                                + " order by s.createdAt, s.id",
                        WebhookSubscription.class)
                .setParameter("org", scope.orgId());
        if (after != null) {
            query.setParameter("t", after.instant()).setParameter("id", after.id());
        }
        List<WebhookSubscription> rows =
                new ArrayList<>(query.setMaxResults(page.limit() + 1).getResultList());
        return Page.of(rows, page.limit(), s -> s.createdAt() + "|" + s.id(), s -> WebhookView.of(s, null));
    }

    @Transactional
    public WebhookView get(OrgScope scope, UUID id) {
        return WebhookView.of(require(scope, id), null);
    }

    /** Removes a subscription with its delivery log; deliveries still pending are dropped. */
    @Transactional
    public void delete(OrgScope scope, UUID id) {
        entityManager.remove(require(scope, id));
    }

    /** A subscription's deliveries, newest first. */
    @Transactional
    public Page<WebhookDeliveryView> deliveries(OrgScope scope, UUID id, PageRequest page) {
        require(scope, id);
        PageRequest.InstantAndId after = page.afterInstantAndId();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery("""
                        select id, event_type, subject, status, attempts, last_status_code, last_error, created_at, next_attempt_at, delivered_at
                        from webhook_delivery where subscription_id = ?1
                          and (created_at, id) < (?2, ?3)
                        order by created_at desc, id desc limit ?4""")
                .setParameter(1, id)
                // the first page starts after the end of time: one statement, whose row comparison the index's
                // order answers (an `or` with "no cursor" could not be looked up in it)
                .setParameter(2, Timestamp.from(after == null ? PageRequest.LAST_INSTANT : after.instant()))
                .setParameter(3, after == null ? new UUID(0, 0) : after.id())
                .setParameter(4, page.limit() + 1)
                .getResultList();
        List<WebhookDeliveryView> views = new ArrayList<>();
        for (Object[] row : rows) {
            views.add(new WebhookDeliveryView(
                    (UUID) row[0],
                    (String) row[1],
                    (String) row[2],
                    (String) row[3],
                    ((Number) row[4]).intValue(),
                    row[5] == null ? null : ((Number) row[5]).intValue(),
                    (String) row[6],
                    SqlTimes.instant(row[7]),
                    "pending".equals(row[3]) ? SqlTimes.instant(row[8]) : null,
                    SqlTimes.instant(row[9])));
        }
        return Page.of(views, page.limit(), v -> v.createdAt() + "|" + v.id(), v -> v);
    }

    /** Whether any subscription of the organization asked for this event (so that its data is worth gathering). */
    public boolean subscribed(UUID orgId, String type) {
        return !entityManager
                .createNativeQuery(
                        "select 1 from webhook_subscription where org_id = ?1 and events @> cast(?2 as jsonb)")
                .setParameter(1, orgId)
                .setParameter(2, json.createArrayNode().add(type).toString())
                .setMaxResults(1)
                .getResultList()
                .isEmpty();
    }

    /**
     * Queues an event for every subscription of the organization that asked for it. Call inside the
     * transaction that makes the event happen; nothing is sent before it commits.
     */
    public void publish(UUID orgId, String type, String subject, ObjectNode data) {
        Instant now = clock.instant();
        ObjectNode payload = payload(type, data, now);
        entityManager
                .createNativeQuery("""
                        insert into webhook_delivery (id, subscription_id, org_id, event_type, subject, payload, status, next_attempt_at, created_at)
                        select gen_random_uuid(), s.id, s.org_id, ?1, ?2, cast(?3 as jsonb), 'pending', ?4, ?4
                        from webhook_subscription s where s.org_id = ?5 and s.events @> cast(?6 as jsonb)""")
                .setParameter(1, type)
                .setParameter(2, subject)
                .setParameter(3, payload.toString())
                .setParameter(4, now)
                .setParameter(5, orgId)
                .setParameter(6, json.createArrayNode().add(type).toString())
                .executeUpdate();
    }

    private void enqueue(UUID subscription, UUID orgId, String type, String subject, ObjectNode data, Instant now) {
        ObjectNode payload = payload(type, data, now);
        entityManager
                .createNativeQuery("""
                        insert into webhook_delivery (id, subscription_id, org_id, event_type, subject, payload, status, next_attempt_at, created_at)
                        values (?1, ?2, ?3, ?4, ?5, cast(?6 as jsonb), 'pending', ?7, ?7)""")
                .setParameter(1, UUID.randomUUID())
                .setParameter(2, subscription)
                .setParameter(3, orgId)
                .setParameter(4, type)
                .setParameter(5, subject)
                .setParameter(6, payload.toString())
                .setParameter(7, now)
                .executeUpdate();
    }

    /** What a delivery POSTs: {@code {"type", "timestamp", "data"}}. */
    private ObjectNode payload(String type, ObjectNode data, Instant now) {
        ObjectNode payload = json.createObjectNode().put("type", type).put("timestamp", now.toString());
        payload.set("data", data);
        return payload;
    }

    /** The subscription's secret, opened for signing. */
    String secretOf(WebhookSubscription subscription) {
        return new String(
                secretBox.open(subscription.sealedSecret(), WebhookSubscription.secretBinding(subscription.id())),
                StandardCharsets.UTF_8);
    }

    private URI checkedUrl(String text) {
        URI url;
        try {
            url = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw PlatformException.invalid("/url", "is not a URL: " + e.getReason());
        }
        if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
            throw PlatformException.invalid("/url", "must be an http or https URL");
        }
        if (url.getUserInfo() != null) {
            throw PlatformException.invalid("/url", "must not carry credentials; verify deliveries by their signature");
        }
        AddressGuard.refusal(url, settings.allowPrivateNetworks()).ifPresent(why -> {
            throw PlatformException.invalid("/url", why);
        });
        return url;
    }

    private WebhookSubscription require(OrgScope scope, UUID id) {
        WebhookSubscription subscription = entityManager.find(WebhookSubscription.class, id);
        if (subscription == null || !subscription.orgId().equals(scope.orgId())) {
            throw PlatformException.notFound("webhook " + id);
        }
        return subscription;
    }
}
