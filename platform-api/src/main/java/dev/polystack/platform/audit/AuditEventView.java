package dev.polystack.platform.audit;

import java.time.Instant;
import java.util.UUID;

/**
 * @param org     the organization the call was about (absent on events recorded before it was kept)
 * @param actor   {@code user:<username>}, {@code service:<org>/<id>} or {@code anonymous}
 * @param action  the API operation, e.g. createProject, cancelDeployment
 * @param target  the request path, or for a create the new object's path
 * @param outcome success or failure
 */
public record AuditEventView(
        UUID id,
        Instant occurredAt,
        String org,
        String actor,
        String actorKind,
        String action,
        String method,
        String target,
        String requestId,
        int status,
        String outcome) {

    static AuditEventView of(AuditEvent event) {
        return new AuditEventView(
                event.id(),
                event.occurredAt(),
                event.orgSlug(),
                event.actorName(),
                event.actorKind(),
                event.action(),
                event.method(),
                event.target(),
                event.requestId(),
                event.status(),
                event.outcome());
    }
}
