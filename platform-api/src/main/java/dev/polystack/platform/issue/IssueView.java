package dev.polystack.platform.issue;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.UUID;

/**
 * An issue as the API shows it.
 *
 * @param detail     for drift, what a check found: {@code drift} (per OpenTofu resource, the attributes that changed,
 *                   sensitive values shown as {@code "(sensitive)"}), {@code changes} (what an apply would do, with
 *                   OpenTofu's reason) and {@code relevant_attributes}; for failures, the error
 * @param seenBy     the deployment (a check or a deploy) that saw it last
 * @param resolvedBy the deployment whose check or apply showed it gone
 */
@Schema(name = "Issue")
public record IssueView(
        UUID id,
        String project,
        String env,
        String resource,
        String resourceType,
        String resourceClass,
        String resourceId,

        @Schema(
                enumeration = {
                    "drift",
                    "destructive-drift",
                    "check-failed",
                    "apply-failed",
                    "runner-unavailable",
                    "module-outdated"
                })
        String kind,

        @Schema(enumeration = {"open", "resolved"}) String state,
        String summary,
        JsonNode detail,
        Instant firstSeen,
        Instant lastSeen,
        UUID seenBy,
        Instant resolvedAt,
        UUID resolvedBy,
        String resolution,
        Instant acknowledgedAt,
        String acknowledgedBy,
        String ackComment) {

    static IssueView of(Issue issue, String project, String env) {
        var resource = issue.resource();
        return new IssueView(
                issue.id(),
                project,
                env,
                resource.toString(),
                resource.type(),
                resource.resourceClass(),
                resource.id(),
                issue.kind(),
                issue.state(),
                issue.summary(),
                issue.detail(),
                issue.firstSeen(),
                issue.lastSeen(),
                issue.seenBy(),
                issue.resolvedAt(),
                issue.resolvedBy(),
                issue.resolution(),
                issue.acknowledgedAt(),
                issue.acknowledgedBy(),
                issue.ackComment());
    }
}
