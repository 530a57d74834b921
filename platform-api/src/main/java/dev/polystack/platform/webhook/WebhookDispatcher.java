package dev.polystack.platform.webhook;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Sends the outbox: at least once, in order per subscription and subject (a delivery waits while an
 * earlier one of its subject is pending), with exponential backoff, signed. Every replica runs it; a
 * delivery is leased to one of them ({@code skip locked}) while it is being sent. 2xx is delivered; 408,
 * 429, 5xx and network errors are retried until the attempts run out; any other answer is final.
 */
@ApplicationScoped
public class WebhookDispatcher {

    private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class);
    private static final int BATCH = 20;
    private static final int MAX_ERROR = 500;
    private static final Duration MAX_DELAY = Duration.ofHours(1);

    @Inject
    EntityManager entityManager;

    @Inject
    WebhookService webhooks;

    @Inject
    WebhookSettings settings;

    @Inject
    Clock clock;

    private HttpClient http;

    @PostConstruct
    void init() {
        // never follows a redirect: the address guard checked only the address it was given
        http = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** A delivery leased for sending. */
    record Leased(UUID id, UUID subscription, String payload, int attempts) {}

    @Scheduled(
            every = "${polystack.webhooks.dispatch-interval:2s}",
            delayed = "${polystack.webhooks.dispatch-interval:2s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            deliverDue();
        } catch (RuntimeException e) {
            LOG.warnf("Delivering webhooks failed (%s); it runs again shortly", e.getMessage());
        }
    }

    /** Sends what is due now; how many it sent (delivered or not). */
    public int deliverDue() {
        int sent = 0;
        List<Leased> due;
        do {
            Instant now = clock.instant();
            due = QuarkusTransaction.requiringNew().call(() -> lease(now));
            for (Leased delivery : due) {
                send(delivery);
                sent++;
            }
        } while (due.size() == BATCH);
        return sent;
    }

    private List<Leased> lease(Instant now) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery("""
                        with due as (
                            select d.id from webhook_delivery d
                            where d.status = 'pending' and d.next_attempt_at <= ?1 and (d.leased_until is null or d.leased_until < ?1)
                              and not exists (select 1 from webhook_delivery e where e.subscription_id = d.subscription_id
                                              and e.subject = d.subject and e.status = 'pending' and e.seq < d.seq)
                            order by d.seq limit ?2 for update skip locked)
                        update webhook_delivery w set leased_until = ?3 from due where w.id = due.id
                        returning w.id, w.subscription_id, cast(w.payload as text), w.attempts""")
                .setParameter(1, now)
                .setParameter(2, BATCH)
                .setParameter(3, now.plus(settings.timeout().multipliedBy(3)))
                .getResultList();
        List<Leased> leased = new ArrayList<>();
        for (Object[] row : rows) {
            leased.add(new Leased((UUID) row[0], (UUID) row[1], (String) row[2], ((Number) row[3]).intValue()));
        }
        return leased;
    }

    private void send(Leased delivery) {
        Optional<WebhookSubscription> found = QuarkusTransaction.requiringNew()
                .call(() ->
                        Optional.ofNullable(entityManager.find(WebhookSubscription.class, delivery.subscription())));
        if (found.isEmpty()) {
            return; // removed meanwhile, with its deliveries
        }
        WebhookSubscription subscription = found.get();
        Integer status = null;
        String error = null;
        URI url = URI.create(subscription.url());
        Optional<String> refused = AddressGuard.refusal(url, settings.allowPrivateNetworks());
        if (refused.isPresent()) {
            record(delivery, null, "not sent: the address " + refused.get(), true);
            return;
        }
        long timestamp = clock.instant().getEpochSecond();
        String id = delivery.id().toString();
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", "Polystack-Webhooks")
                .header("webhook-id", id)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header(
                        "webhook-signature",
                        WebhookSignature.sign(webhooks.secretOf(subscription), id, timestamp, delivery.payload()))
                .POST(HttpRequest.BodyPublishers.ofString(delivery.payload()))
                .build();
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            status = response.statusCode();
        } catch (IOException e) {
            error = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        }
        boolean delivered = status != null && status >= 200 && status < 300;
        boolean retryable = status == null || status == 408 || status == 429 || status >= 500;
        record(
                delivery,
                status,
                delivered ? null : error != null ? error : "answered " + status,
                !delivered && !retryable);
    }

    private void record(Leased delivery, Integer status, String error, boolean finalFailure) {
        Instant now = clock.instant();
        int attempts = delivery.attempts() + 1;
        boolean delivered = error == null;
        boolean failed = !delivered && (finalFailure || attempts >= settings.maxAttempts());
        Duration delay = settings.retryDelay().multipliedBy(1L << Math.min(attempts - 1, 20));
        Instant next = now.plus(delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay);
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery("""
                        update webhook_delivery set attempts = ?1, last_status_code = cast(?2 as integer), last_error = cast(?3 as text),
                               leased_until = null, status = ?4, delivered_at = cast(?5 as timestamptz), next_attempt_at = ?6 where id = ?7""")
                        .setParameter(1, attempts)
                        .setParameter(2, status)
                        .setParameter(
                                3,
                                error == null
                                        ? null
                                        : error.length() <= MAX_ERROR ? error : error.substring(0, MAX_ERROR))
                        .setParameter(4, delivered ? "delivered" : failed ? "failed" : "pending")
                        .setParameter(5, delivered ? now : null)
                        .setParameter(6, next)
                        .setParameter(7, delivery.id())
                        .executeUpdate());
        if (failed) {
            LOG.warnf("Webhook delivery %s failed for good after %d attempt(s): %s", delivery.id(), attempts, error);
        }
    }
}
