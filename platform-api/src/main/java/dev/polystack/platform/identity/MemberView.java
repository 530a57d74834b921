package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;

import java.time.Instant;

/** A user's membership in an organization. */
public record MemberView(String username, String email, Role role, Instant createdAt, Instant updatedAt, long version) {

    static MemberView of(Membership membership, Principal user) {
        return new MemberView(user.username(), user.email(), membership.role(), membership.createdAt(),
                membership.updatedAt(), membership.version());
    }
}
