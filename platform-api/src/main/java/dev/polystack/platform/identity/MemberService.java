package dev.polystack.platform.identity;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.organization.OrganizationService;
import dev.polystack.platform.security.Caller;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Users' memberships in organizations. Every organization keeps at least one owner. */
@ApplicationScoped
public class MemberService {

    @Inject
    MembershipRepository memberships;

    @Inject
    PrincipalRepository principals;

    @Inject
    OrganizationService organizations;

    @Inject
    Clock clock;

    @Transactional
    public Optional<Role> roleOf(UUID orgId, UUID principalId) {
        return memberships.find(orgId, principalId).map(Membership::role);
    }

    /**
     * The caller's name as the audit log records it, unambiguous across organizations:
     * {@code user:<username>} (usernames are unique in the instance) or {@code service:<org>/<id>}.
     */
    @Transactional
    public String actorName(Caller caller) {
        if (!caller.serviceUser()) {
            return "user:" + caller.name();
        }
        Principal principal = principals.findById(caller.principalId());
        if (principal == null || principal.orgId() == null) {
            return caller.name();
        }
        return "service:" + organizations.slugOf(principal.orgId()) + "/" + principal.slug();
    }

    /** The organizations a principal belongs to, by id. */
    @Transactional
    public Map<UUID, Role> organizationsOf(UUID principalId) {
        Map<UUID, Role> result = new HashMap<>();
        for (Membership m : memberships.ofPrincipal(principalId)) {
            result.put(m.orgId(), m.role());
        }
        return result;
    }

    @Transactional
    public MeView me(Caller caller) {
        Principal principal = principals.findById(caller.principalId());
        Map<UUID, String> slugs = organizations.slugsOf(memberships.ofPrincipal(caller.principalId()).stream()
                .map(Membership::orgId)
                .toList());
        List<MembershipView> views = memberships.ofPrincipal(caller.principalId()).stream()
                .map(m -> new MembershipView(slugs.get(m.orgId()), m.role()))
                .sorted(Comparator.comparing(MembershipView::org))
                .toList();
        return new MeView(
                caller.name(),
                principal == null ? null : principal.email(),
                caller.serviceUser(),
                caller.instanceAdmin(),
                views);
    }

    @Transactional
    public Page<MemberView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        List<Object[]> rows = memberships.users(scope.orgId(), page.after(), limit);
        return Page.of(
                rows,
                limit,
                row -> ((Principal) row[1]).username().toLowerCase(Locale.ROOT),
                row -> MemberView.of((Membership) row[0], (Principal) row[1]));
    }

    @Transactional
    public MemberView get(OrgScope scope, String username) {
        Principal user = user(username);
        Membership membership = membership(scope, user, username);
        return MemberView.of(membership, user);
    }

    @Transactional
    public MemberView add(OrgScope scope, AddMemberRequest request) {
        Principal user = principals
                .findUser(request.username() != null ? request.username() : request.email())
                .or(() -> request.email() == null ? Optional.empty() : principals.findUser(request.email()))
                .orElseGet(() -> {
                    if (request.username() == null) {
                        throw PlatformException.unprocessable(
                                "/username",
                                "no user with email `" + request.email()
                                        + "` is known yet; give a username to create one");
                    }
                    Principal created = Principal.user(request.username(), request.email(), clock.instant());
                    principals.persist(created);
                    return created;
                });
        if (memberships.find(scope.orgId(), user.id()).isPresent()) {
            throw PlatformException.conflict(
                    "`" + user.username() + "` is already a member of `" + scope.orgSlug() + "`");
        }
        Membership membership = new Membership(scope.orgId(), user.id(), request.role(), clock.instant());
        memberships.persist(membership);
        return MemberView.of(membership, user);
    }

    @Transactional
    public MemberView update(OrgScope scope, String username, UpdateMemberRequest request, Long expectedVersion) {
        Principal user = user(username);
        Membership membership = membership(scope, user, username);
        Versions.check(expectedVersion, membership.version());
        if (membership.role() == Role.OWNER && request.role() != Role.OWNER && memberships.owners(scope.orgId()) <= 1) {
            throw PlatformException.conflict("`" + username + "` is the last owner of `" + scope.orgSlug()
                    + "`; make someone else an owner first");
        }
        membership.changeRole(request.role(), clock.instant());
        memberships.flush();
        return MemberView.of(membership, user);
    }

    @Transactional
    public void remove(OrgScope scope, String username) {
        Principal user = user(username);
        Membership membership = membership(scope, user, username);
        if (membership.role() == Role.OWNER && memberships.owners(scope.orgId()) <= 1) {
            throw PlatformException.conflict("`" + username + "` is the last owner of `" + scope.orgSlug()
                    + "`; make someone else an owner first");
        }
        memberships.delete(membership);
    }

    /** Makes a principal a member; used for service users, which always have exactly one membership. */
    void join(UUID orgId, UUID principalId, Role role) {
        memberships.persist(new Membership(orgId, principalId, role, clock.instant()));
    }

    Membership membershipOf(UUID orgId, UUID principalId) {
        return memberships.find(orgId, principalId).orElseThrow();
    }

    void leave(UUID orgId, UUID principalId) {
        memberships.find(orgId, principalId).ifPresent(memberships::delete);
    }

    private Principal user(String username) {
        return principals
                .findUser(username)
                .filter(p -> p.username().equalsIgnoreCase(username))
                .orElseThrow(() -> PlatformException.notFound("member `" + username + "`"));
    }

    private Membership membership(OrgScope scope, Principal user, String username) {
        return memberships
                .find(scope.orgId(), user.id())
                .orElseThrow(() -> PlatformException.notFound("member `" + username + "`"));
    }
}
