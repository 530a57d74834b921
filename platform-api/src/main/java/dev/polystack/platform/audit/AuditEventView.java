package dev.polystack.platform.audit;

import java.time.Instant;
import java.util.UUID;

/**
 * @param action  the API operation, e.g. createProject, cancelDeployment
 * @param target  the request path, or for a create the new object's path
 * @param outcome success or failure
 */
public record AuditEventView(UUID id, Instant occurredAt, String actor, String actorKind, String action, String method,
                             String target, String requestId, int status, String outcome) {

    static AuditEventView of(AuditEvent event) {
        return new AuditEventView(event.id(), event.occurredAt(), event.actorName(), event.actorKind(), event.action(),
                event.method(), event.target(), event.requestId(), event.status(), event.outcome());
    }
}
