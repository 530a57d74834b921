package dev.polystack.platform.security;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.identity.MemberService;
import dev.polystack.platform.organization.OrganizationService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.UUID;

/**
 * Decides whether the caller may act in an organization. Someone who is not a member learns nothing:
 * the organization answers 404 exactly as if it did not exist. A member whose role is too low gets 403.
 */
@ApplicationScoped
public class AccessService {

    @Inject
    CurrentCaller currentCaller;

    @Inject
    OrganizationService organizations;

    @Inject
    MemberService members;

    public OrgScope require(String orgSlug, Role needed) {
        Caller caller = currentCaller.get();
        Optional<UUID> orgId = organizations.findId(orgSlug);
        if (orgId.isEmpty()) {
            throw PlatformException.notFound("organization `" + orgSlug + "`");
        }
        Role role;
        if (caller.instanceAdmin()) {
            role = Role.OWNER;
        } else {
            role = members.roleOf(orgId.get(), caller.principalId())
                    .orElseThrow(() -> PlatformException.notFound("organization `" + orgSlug + "`"));
        }
        if (!role.includes(needed)) {
            throw new PlatformException(
                    ProblemType.FORBIDDEN,
                    "this needs the role `" + needed.wireName() + "` or higher in organization `" + orgSlug
                            + "`; you are `" + role.wireName() + "`");
        }
        return new OrgScope(orgId.get(), orgSlug, caller, role);
    }

    public Caller requireInstanceAdmin() {
        Caller caller = currentCaller.get();
        if (!caller.instanceAdmin()) {
            throw new PlatformException(ProblemType.FORBIDDEN, "only an instance administrator may do this");
        }
        return caller;
    }

    public Caller caller() {
        return currentCaller.get();
    }
}
