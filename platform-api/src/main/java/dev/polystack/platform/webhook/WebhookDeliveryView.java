package dev.polystack.platform.webhook;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.UUID;

/** One delivery of an event to a subscription, as its log shows it. */
@Schema(name = "WebhookDelivery")
public record WebhookDeliveryView(
        UUID id,
        String eventType,
        String subject,

        @Schema(enumeration = {"pending", "delivered", "failed"})
        String status,

        int attempts,
        Integer lastStatusCode,
        String lastError,
        Instant createdAt,
        Instant nextAttemptAt,
        Instant deliveredAt) {}
