package dev.polystack.platform.webhook;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A subscription; its secret only in the answer to its creation. */
@Schema(name = "Webhook")
public record WebhookView(
        UUID id,
        String url,
        List<String> events,
        String description,
        Instant createdAt,
        String createdBy,

        @Schema(description = "The signing secret (whsec_…), shown once: when the subscription is made")
        String secret) {

    static WebhookView of(WebhookSubscription subscription, String secret) {
        return new WebhookView(
                subscription.id(),
                subscription.url(),
                subscription.events(),
                subscription.description(),
                subscription.createdAt(),
                subscription.createdBy(),
                secret);
    }
}
