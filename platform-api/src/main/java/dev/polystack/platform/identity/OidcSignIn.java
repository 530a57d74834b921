package dev.polystack.platform.identity;

import dev.polystack.platform.security.Caller;
import dev.polystack.platform.security.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A user signing in with an OIDC token: identified by issuer + subject; at the first sign-in linked to
 * the user an owner added by username or email, or created. Memberships derived from the token's
 * groups (per organization, where owners mapped groups to roles) are brought up to date every time.
 */
@ApplicationScoped
public class OidcSignIn {

    @Inject
    PrincipalRepository principals;

    @Inject
    MembershipRepository memberships;

    @Inject
    EntityManager entityManager;

    @Inject
    Clock clock;

    /** What the token says about the user. */
    public record Claims(
            String issuer, String subject, String username, String email, String name, Collection<String> groups) {}

    @Transactional
    public Caller signIn(Claims claims) {
        Instant now = clock.instant();
        Principal user = principals
                .findByOidc(claims.issuer(), claims.subject())
                .or(() -> principals.findUnlinked(claims.username(), claims.email()))
                .orElseGet(() -> {
                    Principal created = Principal.user(freeUsername(claims), claims.email(), now);
                    principals.persist(created);
                    return created;
                });
        if (user.oidcSubject() == null || changed(user, claims)) {
            user.signedIn(claims.issuer(), claims.subject(), claims.email(), claims.name(), now);
        }
        syncGroups(user, claims.groups(), now);
        return TokenService.callerOf(user);
    }

    private static boolean changed(Principal user, Claims claims) {
        return claims.email() != null && !claims.email().equalsIgnoreCase(String.valueOf(user.email()));
    }

    private String freeUsername(Claims claims) {
        String base = claims.username() != null
                ? claims.username()
                : claims.email() != null ? claims.email() : claims.subject();
        if (!principals.usernameTaken(base)) {
            return base;
        }
        return base + "-"
                + HexFormat.of()
                        .formatHex(claims.subject().getBytes(StandardCharsets.UTF_8))
                        .substring(0, 6);
    }

    /** Applies the organizations' group mappings to a user's memberships. Manual memberships are left alone. */
    private void syncGroups(Principal user, Collection<String> groups, Instant now) {
        @SuppressWarnings("unchecked")
        List<Object[]> mappings = entityManager
                .createNativeQuery("select org_id, group_name, role from oidc_group_mapping")
                .getResultList();
        Map<UUID, Role> wanted = new HashMap<>();
        Set<UUID> mappedOrgs = new HashSet<>();
        for (Object[] mapping : mappings) {
            UUID org = (UUID) mapping[0];
            mappedOrgs.add(org);
            if (groups.contains((String) mapping[1]) || groups.contains("/" + mapping[1])) {
                Role role = Role.fromWire((String) mapping[2]);
                wanted.merge(org, role, (a, b) -> a.includes(b) ? a : b);
            }
        }
        for (UUID org : mappedOrgs) {
            Optional<Membership> current = memberships.find(org, user.id());
            Role role = wanted.get(org);
            if (current.isPresent() && !current.get().isFromOidc()) {
                continue;
            }
            if (role == null) {
                current.ifPresent(memberships::delete);
            } else if (current.isEmpty()) {
                memberships.persist(Membership.fromOidc(org, user.id(), role, now));
            } else if (current.get().role() != role) {
                current.get().changeRole(role, now);
            }
        }
    }
}
