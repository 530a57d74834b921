package dev.polystack.platform.identity;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/** Service users and their tokens. A deleted service user's tokens stop working at once. */
@ApplicationScoped
public class ServiceUserService {

    @Inject
    PrincipalRepository principals;

    @Inject
    MemberService members;

    @Inject
    TokenService tokens;

    @Inject
    Clock clock;

    @Transactional
    public ServiceUserView create(OrgScope scope, CreateServiceUserRequest request) {
        if (principals.findServiceUser(scope.orgId(), request.id()).isPresent()) {
            throw PlatformException.conflict(
                    "service user `" + request.id() + "` already exists in `" + scope.orgSlug() + "`");
        }
        Principal principal =
                Principal.serviceUser(scope.orgId(), request.id(), request.description(), clock.instant());
        principals.persist(principal);
        members.join(scope.orgId(), principal.id(), request.role());
        return ServiceUserView.of(principal, members.membershipOf(scope.orgId(), principal.id()));
    }

    @Transactional
    public Page<ServiceUserView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        List<Principal> rows = principals.serviceUsers(scope.orgId(), page.after(), limit);
        return Page.of(
                rows, limit, Principal::slug, p -> ServiceUserView.of(p, members.membershipOf(scope.orgId(), p.id())));
    }

    @Transactional
    public ServiceUserView get(OrgScope scope, String id) {
        Principal principal = find(scope, id);
        return ServiceUserView.of(principal, members.membershipOf(scope.orgId(), principal.id()));
    }

    @Transactional
    public ServiceUserView update(OrgScope scope, String id, UpdateServiceUserRequest request, Long expectedVersion) {
        Principal principal = find(scope, id);
        Membership membership = members.membershipOf(scope.orgId(), principal.id());
        Versions.check(expectedVersion, principal.version() + membership.version());
        if (request.role() != membership.role()) {
            membership.changeRole(request.role(), clock.instant());
        }
        if (!Objects.equals(request.description(), principal.description())) {
            principal.describe(request.description(), clock.instant());
        }
        principals.flush();
        return ServiceUserView.of(principal, membership);
    }

    @Transactional
    public void delete(OrgScope scope, String id) {
        Principal principal = find(scope, id);
        tokens.deleteAll(principal.id());
        members.leave(scope.orgId(), principal.id());
        principals.delete(principal);
    }

    @Inject
    QuotaService quotas;

    @Transactional
    public CreatedTokenView issueToken(OrgScope scope, String id, CreateTokenRequest request) {
        Principal principal = find(scope, id);
        quotas.requireTokenRoom(scope.orgId(), principal.id());
        return tokens.issue(principal.id(), request, scope.caller().principalId());
    }

    @Transactional
    public Page<TokenView> listTokens(OrgScope scope, String id, PageRequest page) {
        return tokens.list(find(scope, id).id(), page);
    }

    @Transactional
    public TokenView revokeToken(OrgScope scope, String id, UUID tokenId) {
        return tokens.revoke(find(scope, id).id(), tokenId);
    }

    private Principal find(OrgScope scope, String id) {
        return principals
                .findServiceUser(scope.orgId(), id)
                .orElseThrow(() -> PlatformException.notFound("service user `" + id + "`"));
    }
}
