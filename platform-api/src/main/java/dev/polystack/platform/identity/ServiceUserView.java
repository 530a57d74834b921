package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;

import java.time.Instant;

/** A service user: a non-human member of one organization (CI pipelines, scripts). */
public record ServiceUserView(
        String id, String description, Role role, Instant createdAt, Instant updatedAt, long version) {

    static ServiceUserView of(Principal principal, Membership membership) {
        return new ServiceUserView(
                principal.slug(),
                principal.description(),
                membership.role(),
                principal.createdAt(),
                max(principal, membership),
                principal.version() + membership.version());
    }

    private static Instant max(Principal principal, Membership membership) {
        return principal.updatedAt().isAfter(membership.updatedAt()) ? principal.updatedAt() : membership.updatedAt();
    }
}
