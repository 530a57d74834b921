package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;

/**
 * A user's membership in an organization.
 *
 * @param source {@code manual}: added by an owner, stays as it is; {@code oidc}: from an OIDC group mapping, follows the
 *               user's groups at each sign-in
 */
public record MemberView(
        String username,
        String email,
        Role role,
        @Schema(enumeration = {"manual", "oidc"}) String source,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    static MemberView of(Membership membership, Principal user) {
        return new MemberView(
                user.username(),
                user.email(),
                membership.role(),
                membership.isFromOidc() ? "oidc" : "manual",
                membership.createdAt(),
                membership.updatedAt(),
                membership.version());
    }
}
